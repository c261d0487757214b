import Foundation
import Testing
import TwitterCore
import TwitterStore

/// SQLite specifics: what lives in the file and survives reopening it.
struct ThrottleStoreTests {
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
