import Foundation
import Testing
import TwitterCore

struct UserStoreTests {
    @Test(arguments: StoreBackend.all) func emailAndUsernameAreUniqueIgnoringCase(_ backend: StoreBackend) async throws
    {
        let store = try await backend.fixture().users
        let alice = try await store.createUser(email: "Alice@Example.com", username: "alice", passwordHash: nil)
        #expect(try await store.user(email: "alice@example.COM")?.id == alice.id)
        await #expect(throws: TwitterError.self) {
            _ = try await store.createUser(email: "ALICE@example.com", username: "other", passwordHash: nil)
        }
        do {
            _ = try await store.createUser(email: "ÉLODIE@example.com", username: "ALICE", passwordHash: nil)
            Issue.record("a taken username was accepted")
        } catch let error as TwitterError {
            #expect(error.kind == .conflict)
            #expect(error.fields.keys.sorted() == ["username"])
        }
        _ = try await store.createUser(email: "élodie@example.com", username: "elodie", passwordHash: nil)
        do {
            _ = try await store.createUser(email: "ÉLODIE@EXAMPLE.COM", username: "alice", passwordHash: nil)
            Issue.record("a taken email was accepted")
        } catch let error as TwitterError {
            #expect(error.fields.keys.sorted() == ["email", "username"])
        }
    }
}
