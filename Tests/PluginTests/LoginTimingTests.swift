import Foundation
import PasswordLogin
import Sodium
import Testing
import TwitterCore
import TwitterSQL
import TwitterSQLite

/// A failed login must not tell whether the account exists, in its answer or its time. The answers are
/// asserted identical; the timings are reported (docs/SECURITY.md), not asserted: time is the machine's.
struct LoginTimingTests {
    @Test func unknownAndKnownEmailsFailAlikeOverTwoHundredAttemptsEach() async throws {
        let users = UserStore(database: try AppDatabase.inMemory())
        let cost = PasswordHashCost(operations: 2, memoryBytes: 16 << 20)
        let hasher = try PasswordHasher(cost: cost, threads: 1, queueLimit: 8)
        _ = try await users.createUser(
            email: "known@example.com", username: "known", passwordHash: hasher.hash("correct horse"))
        let provider = PasswordLoginProvider(users: users, hasher: hasher)
        let context = LoginContext(peer: PeerCredentials(userID: 1, groupID: 1, processID: 1))
        var timings: [String: [Double]] = [:]
        var errors: Set<String> = []
        for attempt in 0..<400 {
            let email = attempt.isMultiple(of: 2) ? "known@example.com" : "unknown@example.com"
            let started = ContinuousClock.now
            do {
                _ = try await provider.logIn(with: .init(email: email, password: "wrong \(attempt)"), context: context)
                Issue.record("a wrong password logged in")
            } catch let error as TwitterError {
                errors.insert("\(error.kind) \(error.message)")
            }
            let elapsed = ContinuousClock.now - started
            timings[email, default: []].append(
                Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        #expect(errors == ["invalidCredentials Invalid email or password"])
        for (email, values) in timings.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted()
            let mean = sorted.reduce(0, +) / Double(sorted.count)
            print(
                String(
                    format: "login timing %@: %d attempts, mean %.2f ms, median %.2f ms, p90 %.2f ms",
                    email, sorted.count, mean, sorted[sorted.count / 2], sorted[sorted.count * 9 / 10]
                ))
            #expect(sorted.count == 200)
        }
    }
}
