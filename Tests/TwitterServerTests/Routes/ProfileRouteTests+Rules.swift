import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// The rules of profile.update that once took a daemon process each: changed fields only, every bad field at once,
/// the free-text rule, conflicts and the password an e-mail change needs.
extension ProfileRouteTests {
    @Test func updateReportsChangedFieldsAndNoChangesWritesNothing() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let initial = try await alice.call("profile.get")
        #expect(initial["version"] == 1)
        #expect(initial["age"] == .null)
        let first = try await alice.call(
            "profile.update", ["firstName": "Alice", "lastName": "Liddell", "age": 13, "bio": "Curious"])
        #expect(first["changed"] == ["firstName", "lastName", "age", "bio"])
        #expect(first["profile"]?["version"] == 2)
        let same = try await alice.call("profile.update", ["firstName": "Alice", "age": 13])
        #expect(same["changed"] == [])
        #expect(same["profile"]?["version"] == 2)
        #expect(same["profile"]?["updatedAt"] == first["profile"]?["updatedAt"])
        let one = try await alice.call("profile.update", ["bio": "Very curious", "expectedVersion": 2])
        #expect(one["changed"] == ["bio"])
    }

    @Test func profileTextFollowsTheFreeTextRule() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let nul = try await alice.refusal("profile.update", ["bio": "\u{0}\u{0}"])
        #expect(nul.code == -32602)
        #expect(nul.data["fields"]?["bio"] == "Bio may not contain control characters other than newline")
        let escape = try await alice.refusal(
            "profile.update", ["firstName": "Al\u{1B}[2Jice", "lastName": "Lid\ndell"])
        #expect(escape.data["fields"]?["firstName"] == "Firstname may not contain control characters or line breaks")
        #expect(escape.data["fields"]?["lastName"] == "Lastname may not contain control characters or line breaks")
        let stored = try await alice.call("profile.update", ["firstName": "  E\u{301}lodie ", "bio": " two\nlines \n"])
        #expect(stored["profile"]?["firstName"] == "\u{C9}lodie")
        #expect(stored["profile"]?["bio"] == "two\nlines")
        #expect(try await alice.call("profile.get")["bio"] == "two\nlines")
    }

    @Test func fourBadFieldsGetFourMessages() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let error = try await alice.refusal(
            "profile.update", ["firstName": "A", "lastName": "", "email": "x@y", "age": 124.5])
        #expect(error.code == -32602)
        #expect(error.data["fields"]?["age"] == "expected an integer, found 124.5")
        let domain = try await alice.refusal(
            "profile.update", ["firstName": "A", "lastName": "", "email": "x@y", "age": 125, "username": "bad name"])
        guard case .object(let fields)? = domain.data["fields"] else {
            Issue.record("no fields")
            return
        }
        #expect(fields.count == 5)
        #expect(fields["firstName"] == "Firstname is too short")
        #expect(fields["lastName"] == "Lastname can not be empty")
        #expect(fields["email"] == "Email is too short")
        #expect(fields["age"] == "Must be older than 13 and younger than 124")
        #expect(try await alice.call("profile.get")["version"] == 1, "nothing was written")
    }

    @Test func anotherUsersProfileHidesEmailAndAge() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        _ = try await alice.call("profile.update", ["age": 30, "bio": "hi"])
        let bob = try await daemon.signUp("bob")
        let seen = try await bob.call("profile.get", ["username": "Alice"])
        #expect(seen["bio"] == "hi")
        #expect(seen["email"] == nil)
        #expect(seen["age"] == nil)
        #expect(try await bob.refusal("profile.get", ["nobody"]).code == -32004)
    }

    @Test func twoEditorsNeverSilentlyOverwriteEachOther() async throws {
        let daemon = try await InProcessDaemon()
        let token = try await daemon.connect().call(
            API.Auth.signup, .init(email: "alice@example.com", password: InProcessDaemon.password)
        ).session.token
        let first = daemon.connect()
        let second = daemon.connect()
        _ = try await first.call(API.Auth.login, AuthRouteTests.tokenLogin(token))
        _ = try await second.call(API.Auth.login, AuthRouteTests.tokenLogin(token))
        _ = try await first.call("profile.update", ["firstName": "Alice"])
        _ = try await second.call("profile.update", ["lastName": "Liddell"])
        let stored = try await first.call("profile.get")
        #expect(stored["firstName"] == "Alice", "the second editor's change kept the first's")
        #expect(stored["lastName"] == "Liddell")
        let stale = try await second.refusal("profile.update", ["bio": "mine", "expectedVersion": 2])
        #expect(stale.code == -32005)
        #expect(stale.data["currentVersion"] == 3)
    }

    @Test func takenFieldsConflictAndEmailChangesNeedThePassword() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let taken = try await bob.refusal("profile.update", ["username": "ALICE"])
        #expect(taken.code == -32005)
        #expect(taken.data["fields"]?["username"] == "Username is already taken")
        let noPassword = try await bob.refusal("profile.update", ["email": "robert@example.com"])
        #expect(noPassword.data["fields"]?["currentPassword"] == "is required to change the email")
        let wrong = try await bob.refusal(
            "profile.update", ["email": "robert@example.com", "currentPassword": "not the password"])
        #expect(wrong.code == -32002)
        let takenEmail = try await bob.refusal(
            "profile.update", ["email": "alice@example.com", "currentPassword": "correct horse battery"])
        #expect(takenEmail.data["fields"]?["email"] == "Email is already taken")
        let changed = try await bob.call(
            "profile.update", ["email": "robert@example.com", "currentPassword": "correct horse battery"])
        #expect(changed["changed"] == ["email"])
        _ = try await daemon.connect().call(API.Auth.login, AuthRouteTests.passwordLogin("robert@example.com"))
    }
}
