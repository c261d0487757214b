import Foundation
import Testing
import TwitterCore

struct ProfileStoreTests {
    /// Timestamps are stored to the millisecond.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    @Test(arguments: StoreBackend.all) func anUpdateThatChangesNothingWritesNothing(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let user = try await fixture.users.createUser(email: "a@example.com", username: "alice", passwordHash: nil)
        let first = try await fixture.profiles.updateProfile(
            userID: user.id, patch: ProfilePatch(firstName: "Alice"), expectedVersion: nil)
        #expect(first.changed == ["firstName"])
        #expect(first.profile.version == 2)
        let same = try await fixture.profiles.updateProfile(
            userID: user.id, patch: ProfilePatch(firstName: "Alice", username: "alice"), expectedVersion: 2
        )
        #expect(same.changed == [])
        #expect(same.profile.version == 2)
        #expect(Self.milliseconds(same.profile.updatedAt) == Self.milliseconds(first.profile.updatedAt))
        let stored = try #require(try await fixture.profiles.profile(userID: user.id))
        #expect(stored.version == 2)
        #expect(Self.milliseconds(stored.updatedAt) == Self.milliseconds(first.profile.updatedAt))
    }

    @Test(arguments: StoreBackend.all) func updatingOneFieldKeepsAConcurrentChangeToAnother(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let user = try await fixture.users.createUser(email: "a@example.com", username: "alice", passwordHash: nil)
        // Two editors start from the same version; each submits only the field it edited.
        _ = try await fixture.profiles.updateProfile(
            userID: user.id, patch: ProfilePatch(lastName: "Liddell"), expectedVersion: nil)
        _ = try await fixture.profiles.updateProfile(
            userID: user.id, patch: ProfilePatch(firstName: "Alice"), expectedVersion: nil)
        let stored = try #require(try await fixture.profiles.profile(userID: user.id))
        #expect(stored.firstName == "Alice")
        #expect(stored.lastName == "Liddell")
        #expect(stored.version == 3)
    }

    @Test(arguments: StoreBackend.all) func staleExpectedVersionIsAConflictCarryingTheCurrentVersion(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let user = try await fixture.users.createUser(email: "a@example.com", username: "alice", passwordHash: nil)
        _ = try await fixture.profiles.updateProfile(
            userID: user.id, patch: ProfilePatch(bio: "one"), expectedVersion: 1)
        do {
            _ = try await fixture.profiles.updateProfile(
                userID: user.id, patch: ProfilePatch(bio: "two"), expectedVersion: 1)
            Issue.record("a stale version was accepted")
        } catch let error as TwitterError {
            #expect(error.kind == .conflict)
            #expect(error.details["currentVersion"] == .int(2))
        }
        #expect(try await fixture.profiles.profile(userID: user.id)?.bio == "one")
    }

    @Test(arguments: StoreBackend.all) func takenEmailOrUsernameIsAConflictNamingTheField(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        _ = try await fixture.users.createUser(email: "a@example.com", username: "alice", passwordHash: nil)
        let bob = try await fixture.users.createUser(email: "b@example.com", username: "bob", passwordHash: nil)
        do {
            _ = try await fixture.profiles.updateProfile(
                userID: bob.id, patch: ProfilePatch(email: "A@EXAMPLE.com", username: "ALICE"), expectedVersion: nil
            )
            Issue.record("taken fields were accepted")
        } catch let error as TwitterError {
            #expect(error.kind == .conflict)
            #expect(error.fields == ["email": "Email is already taken", "username": "Username is already taken"])
        }
        // Changing only the case of one's own username is allowed.
        let renamed = try await fixture.profiles.updateProfile(
            userID: bob.id, patch: ProfilePatch(username: "Bob"), expectedVersion: nil)
        #expect(renamed.changed == ["username"])
    }
}
