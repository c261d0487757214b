import Foundation
import Testing
import TwitterCore
import TwitterStore

struct UserStoreTests {
    @Test func emailAndUsernameAreUniqueIgnoringCase() async throws {
        let store = UserStore(database: try AppDatabase.inMemory())
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

    @Test func throttleStateSurvivesReopeningTheFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("throttle-\(UUID()).sqlite").path
        let moment = Date(timeIntervalSince1970: 1_000_000)
        do {
            let database = try AppDatabase.open(path: path)
            let throttle = LoginThrottle(store: ThrottleStore(database: database), now: { moment })
            for _ in 0..<5 { try await throttle.recordFailure(["account:a"]) }
            try database.close()
        }
        let reopened = try AppDatabase.open(path: path)
        let throttle = LoginThrottle(store: ThrottleStore(database: reopened), now: { moment })
        do {
            try await throttle.check(["account:a"])
            Issue.record("the throttle forgot its count")
        } catch let error as TwitterError {
            #expect(error.kind == .rateLimited)
            #expect(error.details["retryAfter"] == .int(1))
        }
    }
}
