import Foundation
import PasswordLogin
import Sodium
import Testing
import TwitterCore
import TwitterSQL
import TwitterSQLite

/// The password provider against a real (in-memory) SQLite store and real libsodium.
struct PasswordLoginTests {
    struct Fixture {
        let users: UserStore
        let hasher: PasswordHasher
        let provider: PasswordLoginProvider
        let peer = LoginContext(peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))

        init(cost: PasswordHashCost = .minimum, users: UserStore? = nil) throws {
            self.users = try users ?? UserStore(database: AppDatabase.inMemory())
            hasher = try PasswordHasher(cost: cost, threads: 2, queueLimit: 16)
            provider = PasswordLoginProvider(users: self.users, hasher: hasher)
        }

        func signUp(_ email: String, _ password: String) async throws -> User {
            // The email's own name: unique as the email is (a random one collided now and then).
            try await users.createUser(
                email: email, username: String(email.prefix { $0 != "@" }), passwordHash: hasher.hash(password))
        }
    }

    struct Source: CredentialsSource {
        let email: String
        let password: String

        func decode<Credentials: Decodable>(_ type: Credentials.Type) throws -> Credentials {
            try JSONDecoder().decode(type, from: JSONEncoder().encode(["email": email, "password": password]))
        }
    }

    @Test func logsInThroughTheErasedProviderAndTheRegistry() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.signUp("alice@example.com", "correct horse")
        var registry = LoginProviderRegistry()
        registry.register(fixture.provider)
        let provider = try #require(registry.provider(named: "password"))
        #expect(provider.credentialFields.map(\.name) == ["email", "password"])
        let authentication = try await provider.logIn(
            from: Source(email: "ALICE@example.com", password: "correct horse"), context: fixture.peer
        )
        #expect(authentication.user.id == alice.id)
        #expect(authentication.resumedSession == nil)
    }

    @Test func unknownEmailAndWrongPasswordFailAlike() async throws {
        let fixture = try Fixture()
        _ = try await fixture.signUp("alice@example.com", "correct horse")
        let erased = AnyLoginProvider(fixture.provider)
        var errors: [TwitterError] = []
        for source in [
            Source(email: "alice@example.com", password: "wrong horse"),
            Source(email: "nobody@example.com", password: "correct horse"),
        ] {
            do {
                _ = try await erased.logIn(from: source, context: fixture.peer)
            } catch let error as TwitterError {
                errors.append(error)
            }
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
        #expect(errors.first?.kind == .invalidCredentials)
        #expect(errors.first?.message == "Invalid email or password")
    }

    @Test func storedHashIsRemadeWhenTheConfiguredCostChanges() async throws {
        let cheap = try Fixture(cost: .minimum)
        let user = try await cheap.signUp("bob@example.com", "correct horse")
        let before = try #require(try await cheap.users.passwordHash(userID: user.id))
        let stronger = PasswordHashCost(operations: 2, memoryBytes: 1 << 20)
        let upgraded = try Fixture(cost: stronger, users: cheap.users)
        _ = try await upgraded.provider.logIn(
            with: .init(email: "bob@example.com", password: "correct horse"), context: upgraded.peer
        )
        let after = try #require(try await cheap.users.passwordHash(userID: user.id))
        #expect(after != before)
        #expect(Sodium.shared.needsRehash(before, cost: stronger))
        #expect(!Sodium.shared.needsRehash(after, cost: stronger))
        // The new hash still verifies the same password.
        _ = try await upgraded.provider.logIn(
            with: .init(email: "bob@example.com", password: "correct horse"), context: upgraded.peer
        )
    }

    @Test(arguments: [
        ("", false), ("1234567", false), ("12345678", true), (String(repeating: "x", count: 128), true),
        (String(repeating: "x", count: 129), false),
        // Seven code points, NFKC leaves them seven: too short even though it is 21 bytes.
        ("ééééééé", false),
        // The "ﬃ" ligature becomes "ffi" under NFKC: 6 + 3 = 9 code points.
        ("abcdef\u{FB03}", true),
    ])
    func passwordPolicy(password: String, accepted: Bool) {
        #expect(PasswordPolicy.validator(minimumLength: 8).accepts(password) == accepted)
    }

    @Test func fullQueueAnswersUnavailable() async throws {
        let users = try UserStore(database: AppDatabase.inMemory())
        let hasher = try PasswordHasher(
            cost: PasswordHashCost(operations: 3, memoryBytes: 32 << 20), threads: 1, queueLimit: 1)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await hasher.hash("correct horse")) != nil }
            }
            var results: [Bool] = []
            for await result in group { results.append(result) }
            return results
        }
        _ = users
        #expect(outcomes.contains(true))
        #expect(outcomes.contains(false), "a full queue must refuse instead of piling up")
    }
}
