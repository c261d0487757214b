import Foundation
import PasswordLogin
import Synchronization
import Testing
import TwitterCore
import TwitterSQL
import TwitterSQLite

/// The throttle's sequence: five free failures, then 1 s, 2 s, 4 s… capped at 15 minutes, 100 a day.
struct ThrottleTests {
    final class Clock: Sendable {
        let milliseconds = Atomic<Int>(1_800_000_000_000)
        var now: Date { Date(timeIntervalSince1970: TimeInterval(milliseconds.load(ordering: .relaxed)) / 1000) }
        func advance(seconds: Double) { milliseconds.add(Int(seconds * 1000), ordering: .relaxed) }
    }

    func retryAfter(_ throttle: LoginThrottle, _ keys: [LoginThrottle.Key]) async throws -> Int? {
        do {
            try await throttle.check(keys)
            return nil
        } catch let error as TwitterError where error.kind == .rateLimited {
            guard case .int(let seconds)? = error.details["retryAfter"] else { return -1 }
            return seconds
        }
    }

    @Test func waitsDoubleAfterTheFifthFailureAndASuccessResets() async throws {
        let clock = Clock()
        let throttle = LoginThrottle(store: ThrottleStore(database: try AppDatabase.inMemory()), now: { clock.now })
        let keys = LoginThrottle.keys(account: "a", peer: PeerCredentials(userID: 1, groupID: 1, processID: 1))
        for _ in 0..<5 {
            #expect(try await retryAfter(throttle, keys) == nil)
            try await throttle.recordFailure(keys)
        }
        var expected = 1
        for _ in 0..<12 {
            #expect(try await retryAfter(throttle, keys) == expected)
            clock.advance(seconds: Double(expected))
            #expect(try await retryAfter(throttle, keys) == nil)
            try await throttle.recordFailure(keys)
            expected = min(expected * 2, 900)
        }
        #expect(try await retryAfter(throttle, keys) == 900)
        clock.advance(seconds: 900)
        try await throttle.recordSuccess(keys)
        #expect(try await retryAfter(throttle, keys) == nil)
    }

    @Test func noKeyTakesMoreThanAHundredFailuresADay() async throws {
        let clock = Clock()
        let policy = {
            var policy = LoginThrottle.Policy(); policy.threshold = 1000; return policy
        }()
        let throttle = LoginThrottle(
            store: ThrottleStore(database: try AppDatabase.inMemory()), policy: policy, now: { clock.now }
        )
        let key = LoginThrottle.Key.accountFromSource("a", uid: 1)
        for _ in 0..<100 { try await throttle.recordFailure([key]) }
        let wait = try #require(try await retryAfter(throttle, [key]))
        #expect(wait == 86_400)
        clock.advance(seconds: 86_400)
        #expect(try await retryAfter(throttle, [key]) == nil)
    }

    /// Another local user's guesses slow that user down, not the account's owner on a uid of their own; only the
    /// account's generous daily ceiling counts every uid, and the owner's success does not wipe it.
    @Test func guessesFromAnotherUIDDoNotLockTheOwnerOut() async throws {
        let clock = Clock()
        let throttle = LoginThrottle(store: ThrottleStore(database: try AppDatabase.inMemory()), now: { clock.now })
        let attacker = LoginThrottle.keys(account: "victim@example.com", peer: Self.peer(65534))
        let owner = LoginThrottle.keys(account: "victim@example.com", peer: Self.peer(1000))
        for _ in 0..<10 { try await throttle.recordFailure(attacker) }
        #expect(try await retryAfter(throttle, attacker) == 32)
        #expect(try await retryAfter(throttle, owner) == nil)
        try await throttle.recordSuccess(owner)
        #expect(try await retryAfter(throttle, attacker) == 32, "the owner's success clears only its own count")

        var policy = LoginThrottle.Policy()
        policy.threshold = 10_000
        let ceiling = LoginThrottle(
            store: ThrottleStore(database: try AppDatabase.inMemory()), policy: policy, now: { clock.now })
        for uid in 0..<10 {
            let keys = LoginThrottle.keys(account: "victim@example.com", peer: Self.peer(UInt32(2000 + uid)))
            for _ in 0..<100 { try await ceiling.recordFailure(keys) }
        }
        #expect(try await retryAfter(ceiling, owner) == 86_400, "a thousand failures a day close the account")
    }

    static func peer(_ uid: UInt32) -> PeerCredentials {
        PeerCredentials(userID: uid, groupID: uid, processID: 1)
    }

    /// A uid's failures were wiped by any successful login from it: one wrong password over many accounts, with a
    /// free login to its own account every third guess, was never throttled. A success now forgives only its own
    /// (account, uid) pair; the uid's count stands, so the sixth wrong guess waits, successes or not.
    @Test func aSuccessEveryThirdGuessDoesNotForgiveASpray() async throws {
        let clock = Clock()
        let passwords = try PasswordLoginTests.Fixture()
        _ = try await passwords.signUp("me@example.com", "my own password")
        for index in 0..<20 { _ = try await passwords.signUp("victim\(index)@example.com", "unguessable \(index)") }
        let provider = AnyLoginProvider(passwords.provider)
        let throttle = LoginThrottle(store: ThrottleStore(database: try AppDatabase.inMemory()), now: { clock.now })
        var refusedAt: Int?
        var victims = 0
        for attempt in 0..<30 where refusedAt == nil {
            let own = attempt % 3 == 2
            let source =
                own
                ? PasswordLoginTests.Source(email: "me@example.com", password: "my own password")
                : PasswordLoginTests.Source(email: "victim\(victims)@example.com", password: "password1")
            if !own { victims += 1 }
            do {
                _ = try await provider.logIn(from: source, context: passwords.peer, throttle: throttle)
                #expect(own, "a wrong password never logs in")
            } catch let error as TwitterError where error.kind == .rateLimited {
                refusedAt = attempt
            } catch let error as TwitterError {
                #expect(!own && error.kind == .invalidCredentials)
            }
        }
        // Guesses 0, 1, 3, 4 and 6 failed, with the uid's own logins 2 and 5 between them: guess 7 waits.
        #expect(refusedAt == 7)
    }

    /// A guess is counted before its credentials are checked, so right logins at once from one uid (a script running
    /// twctl in parallel) once looked like failures to each other and the sixth was refused; one waits for those in
    /// flight to be judged now, and every right login passes.
    @Test func rightLoginsAtOnceFromOneUidAllPass() async throws {
        let passwords = try PasswordLoginTests.Fixture()
        let me = try await passwords.signUp("me@example.com", "my own password")
        let provider = AnyLoginProvider(passwords.provider)
        let throttle = LoginThrottle(store: ThrottleStore(database: try AppDatabase.inMemory()))
        let users = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await provider.logIn(
                        from: PasswordLoginTests.Source(email: "me@example.com", password: "my own password"),
                        context: passwords.peer, throttle: throttle
                    ).user.id
                }
            }
            var users: [Int64] = []
            for try await user in group { users.append(user) }
            return users
        }
        #expect(users == Array(repeating: me.id, count: 12))
    }

    /// Root reads the database and its keys anyway: its own count would only hold up its scripts. The account's
    /// count from root still does.
    @Test func rootHasNoCountOfItsOwnButEachAccountFromRootHas() {
        let root = LoginThrottle.keys(account: "a", peer: PeerCredentials(userID: 0, groupID: 0, processID: 1))
        #expect(root.map(\.scope) == [.accountFromSource, .account])
    }
}
