import Foundation
import Testing
import TwitterCore

/// Login throttle counts, stored so that a restart (or another daemon) keeps an attacker's count.
struct ThrottleStoreTests {
    @Test(arguments: StoreBackend.all) func throttleStateIsStoredAndEveryConcurrentFailureCounts(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        // Before PostgreSQL's epoch (2000-01-01), where postgres-nio rounds the other way: stored a microsecond
        // late, the wait below would round up to 2 s.
        let moment = Date(timeIntervalSince1970: 1_000_000)
        let throttle = LoginThrottle(store: fixture.throttle, now: { moment })
        let (a, b) = (
            LoginThrottle.Key.accountFromSource("a", uid: 1), LoginThrottle.Key.accountFromSource("b", uid: 1)
        )
        for _ in 0..<5 { try await throttle.recordFailure([a]) }
        #expect(
            try await fixture.throttle.throttleState(for: a.storageName)
                == ThrottleState(failures: 5, lastFailureAt: moment, windowStart: moment, windowFailures: 5))
        // A throttle of its own, as after a restart: the count comes from the store.
        let restarted = LoginThrottle(store: fixture.throttle, now: { moment })
        do {
            try await restarted.check([a])
            Issue.record("the throttle forgot its count")
        } catch let error as TwitterError {
            #expect(error.kind == .rateLimited)
            #expect(error.details["retryAfter"] == .int(1))
        }

        // Failures at once, each reading and writing the same key: none may overwrite another.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { try await throttle.recordFailure([b]) } }
            try await group.waitForAll()
        }
        #expect(try await fixture.throttle.throttleState(for: b.storageName)?.failures == 20)

        try await restarted.recordSuccess([a, .source(uid: 0)])
        #expect(try await fixture.throttle.throttleState(for: a.storageName) == nil)
        #expect(try await fixture.throttle.throttleState(for: b.storageName)?.windowFailures == 20, "others' stay")
        try await restarted.check([a])
    }

    /// Concurrent guesses once all passed the check before any failure was recorded, so a fresh uid's twenty
    /// guesses at once all reached the hash. Each is counted in the store before its credentials are checked now,
    /// under the key's lock: at most the free allowance (5) reach the check, the others are -32006. The guesses are
    /// held at the check until every one of them has either reached it or been refused, so on the old order all
    /// twenty would reach it; each goes through a throttle of its own, as through daemons of their own, so the
    /// store's count alone stands between them.
    @Test(arguments: StoreBackend.all) func concurrentGuessesFromAFreshUidPassTheFreeAllowanceAtMost(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let moment = Date(timeIntervalSince1970: 1_000_000)
        let guesses = 20
        let gate = HeldGuesses.Gate(expected: guesses)
        let provider = AnyLoginProvider(HeldGuesses(gate: gate))
        let context = LoginContext(peer: PeerCredentials(userID: 4242, groupID: 4242, processID: 1))
        let refusals = try await withThrowingTaskGroup(of: TwitterError.Kind.self) { group in
            for index in 0..<guesses {
                group.addTask {
                    let throttle = LoginThrottle(store: fixture.throttle, now: { moment })
                    do {
                        _ = try await provider.logIn(
                            from: HeldGuesses.Source(account: "victim\(index)@example.com"), context: context,
                            throttle: throttle)
                        Issue.record("a wrong guess logged in")
                        return .internal
                    } catch let error as TwitterError {
                        if error.kind == .rateLimited { await gate.refused() }
                        return error.kind
                    }
                }
            }
            var kinds: [TwitterError.Kind] = []
            for try await kind in group { kinds.append(kind) }
            return kinds
        }
        let reached = await gate.entered
        #expect(reached <= LoginThrottle.Policy().threshold, "at most the free allowance reach the hash check")
        #expect(refusals.filter { $0 == .invalidCredentials }.count == reached)
        #expect(refusals.filter { $0 == .rateLimited }.count == guesses - reached)
        #expect(
            try await fixture.throttle.throttleState(for: LoginThrottle.Key.source(uid: 4242).storageName)?.failures
                == reached, "a refused guess is not counted")
    }
}

/// A provider whose every guess is wrong and names an account, holding each guess at its check until every guess of
/// the test has reached it or been refused.
struct HeldGuesses: LoginProviding {
    /// `{account}`.
    struct Credentials: Decodable, Sendable {
        let account: String
    }

    /// The credentials of one guess, as a request would carry them.
    struct Source: CredentialsSource {
        let account: String

        func decode<Credentials: Decodable>(_ type: Credentials.Type) throws -> Credentials {
            try JSONDecoder().decode(type, from: JSONEncoder().encode(["account": account]))
        }
    }

    /// Where guesses wait: it opens once `expected` guesses have entered or been refused.
    actor Gate {
        let expected: Int
        private(set) var entered = 0
        private var refusedCount = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(expected: Int) {
            self.expected = expected
        }

        /// A guess reached the check: it waits for the others.
        func enter() async {
            entered += 1
            if isOpen { return openAll() }
            await withCheckedContinuation { waiting.append($0) }
        }

        /// A guess was refused before the check.
        func refused() {
            refusedCount += 1
            if isOpen { openAll() }
        }

        private var isOpen: Bool { entered + refusedCount >= expected }

        private func openAll() {
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }

    let gate: Gate

    var name: String { "held" }
    var credentialFields: [CredentialField] { [] }

    func throttleKey(for credentials: Credentials) -> String? { credentials.account }

    func logIn(with credentials: Credentials, context: LoginContext) async throws -> Authentication {
        await gate.enter()
        throw TwitterError(.invalidCredentials, "Invalid email or password")
    }
}
