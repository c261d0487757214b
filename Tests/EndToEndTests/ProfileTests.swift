import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Profile reads and edits over the socket: changed fields only, every bad field at once, conflicts.
@Suite(.serialized) struct ProfileTests {
    @Test func updateReportsChangedFieldsAndNoChangesWritesNothing() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
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
    }

    @Test func profileTextFollowsTheFreeTextRule() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            let nul = try await alice.callError("profile.update", ["bio": "\u{0}\u{0}"])
            #expect(nul?.code == -32602)
            #expect(nul?.data["fields"]?["bio"] == "Bio may not contain control characters other than newline")
            let escape = try await alice.callError(
                "profile.update", ["firstName": "Al\u{1B}[2Jice", "lastName": "Lid\ndell"])
            #expect(
                escape?.data["fields"]?["firstName"] == "Firstname may not contain control characters or line breaks")
            #expect(escape?.data["fields"]?["lastName"] == "Lastname may not contain control characters or line breaks")
            let stored = try await alice.call(
                "profile.update", ["firstName": "  E\u{301}lodie ", "bio": " two\nlines \n"])
            #expect(stored["profile"]?["firstName"] == "\u{C9}lodie")
            #expect(stored["profile"]?["bio"] == "two\nlines")
            #expect(try await alice.call("profile.get")["bio"] == "two\nlines")
        }
    }

    @Test func fourBadFieldsGetFourMessages() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            let error = try await alice.callError(
                "profile.update", ["firstName": "A", "lastName": "", "email": "x@y", "age": 124.5]
            )
            #expect(error?.code == -32602)
            #expect(error?.data["fields"]?["age"] == "expected an integer, found 124.5")
            let domain = try await alice.callError(
                "profile.update",
                ["firstName": "A", "lastName": "", "email": "x@y", "age": 125, "username": "bad name"]
            )
            guard case .object(let fields)? = domain?.data["fields"] else {
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
    }

    @Test func anotherUsersProfileHidesEmailAndAge() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            _ = try await alice.call("profile.update", ["age": 30, "bio": "hi"])
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
            let seen = try await bob.call("profile.get", ["username": "Alice"])
            #expect(seen["bio"] == "hi")
            #expect(seen["email"] == nil)
            #expect(seen["age"] == nil)
            #expect(try await bob.callError("profile.get", ["nobody"])?.code == -32004)
        }
    }

    @Test func twoEditorsNeverSilentlyOverwriteEachOther() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { first in
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { second in
                try await first.logIn(token: token)
                try await second.logIn(token: token)
                _ = try await first.call("profile.update", ["firstName": "Alice"])
                _ = try await second.call("profile.update", ["lastName": "Liddell"])
                let stored = try await first.call("profile.get")
                #expect(stored["firstName"] == "Alice", "the second editor's change kept the first's")
                #expect(stored["lastName"] == "Liddell")
                let stale = try await second.callError("profile.update", ["bio": "mine", "expectedVersion": 2])
                #expect(stale?.code == -32005)
                #expect(stale?.data["currentVersion"] == 3)
            }
        }
    }

    @Test func takenFieldsConflictAndEmailChangesNeedThePassword() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        _ = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
            let taken = try await bob.callError("profile.update", ["username": "ALICE"])
            #expect(taken?.code == -32005)
            #expect(taken?.data["fields"]?["username"] == "Username is already taken")
            let noPassword = try await bob.callError("profile.update", ["email": "robert@example.com"])
            #expect(noPassword?.data["fields"]?["currentPassword"] == "is required to change the email")
            let wrong = try await bob.callError(
                "profile.update", ["email": "robert@example.com", "currentPassword": "not the password"]
            )
            #expect(wrong?.code == -32002)
            let takenEmail = try await bob.callError(
                "profile.update", ["email": "alice@example.com", "currentPassword": "correct horse battery"]
            )
            #expect(takenEmail?.data["fields"]?["email"] == "Email is already taken")
            let changed = try await bob.call(
                "profile.update", ["email": "robert@example.com", "currentPassword": "correct horse battery"]
            )
            #expect(changed["changed"] == ["email"])
            try await bob.logIn(email: "robert@example.com")
        }
    }
}
