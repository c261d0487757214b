import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `profile.get` and `profile.update`: your own profile in full, others' in public.
struct ProfileRouteTests: RouteTesting {
    static let routes = [API.Profiles.get.name, API.Profiles.update.name]

    @Test func getShowsYourOwnProfileInFullAndOthersWithoutTheirAddress() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        guard case .own(let mine) = try await alice.call(API.Profiles.get, .init()) else {
            Issue.record("alice's own profile is not shown in full")
            return
        }
        #expect(mine.email == "alice@example.com")
        guard case .other(let bobs) = try await alice.call(API.Profiles.get, .init(username: "bob")) else {
            Issue.record("bob's profile is shown to alice in full")
            return
        }
        #expect(bobs.username == "bob")
        let raw = try await alice.call(API.Profiles.get.name, ["username": "bob"])
        #expect(raw["email"] == nil, "another account's address is private")
        guard case .own = try await alice.call(API.Profiles.get, .init(username: "ALICE")) else {
            Issue.record("alice by name is not alice's own profile")
            return
        }
        #expect(try await alice.refusal(API.Profiles.get, .init(username: "nobody")).code == -32004)
        #expect(try await daemon.connect().refusal(API.Profiles.get, .init()).code == -32001)
    }

    @Test func updateWritesWhatDiffersAndRefusesStaleVersionsTakenNamesAndBadFields() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        let first = try await alice.call(API.Profiles.update, .init(firstName: "Alice", bio: "hi"))
        #expect(Set(first.changed) == ["firstName", "bio"])
        #expect(first.profile.firstName == "Alice")
        let same = try await alice.call(API.Profiles.update, .init(firstName: "Alice"))
        #expect(same.changed.isEmpty && same.profile.version == first.profile.version)

        let stale = try await alice.refusal(
            API.Profiles.update, .init(lastName: "Liddell", expectedVersion: first.profile.version - 1))
        #expect(stale.code == -32005)
        #expect(try await alice.refusal(API.Profiles.update, .init(username: "BOB")).code == -32005)
        #expect(try await alice.refusal(API.Profiles.update, .init(age: 7)).code == -32602)
        let noPassword = try await alice.refusal(API.Profiles.update, .init(email: "new@example.com"))
        #expect(noPassword.code == -32602, "a new address needs the password")
        let wrongPassword = try await alice.refusal(
            API.Profiles.update, .init(email: "new@example.com", currentPassword: "not the password"))
        #expect(wrongPassword.code == -32002)
        let moved = try await alice.call(
            API.Profiles.update, .init(email: "new@example.com", currentPassword: InProcessDaemon.password))
        #expect(moved.profile.email == "new@example.com")
        #expect(try await daemon.connect().refusal(API.Profiles.update, .init(firstName: "Mallory")).code == -32001)
    }
}
