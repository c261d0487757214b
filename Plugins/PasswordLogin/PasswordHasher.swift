import Foundation
import Sodium
import TwitterCore

/// Argon2id hashing through libsodium on a bounded pool of threads, never on an event loop or the Swift
/// cooperative pool.
///
/// Passwords are NFKC-normalised first, so the same password typed on two keyboards hashes the same.
public final class PasswordHasher: PasswordHashing {
    /// The cost new hashes are made with; stored hashes of another cost are remade at the next login.
    public let cost: PasswordHashCost
    /// The password rules.
    public let policy: Validator<String>
    private let pool: WorkerPool
    /// A hash of a random password at the configured cost: an unknown e-mail is verified against it, so a
    /// failed login takes the same time whether or not the account exists.
    private let dummyHash: String

    /// Creates a hasher with `threads` hashing threads and at most `queueLimit` hashes waiting.
    public init(cost: PasswordHashCost, minimumLength: Int = 8, threads: Int, queueLimit: Int) throws {
        self.cost = cost
        self.policy = PasswordPolicy.validator(minimumLength: minimumLength)
        self.pool = WorkerPool(threads: threads, queueLimit: queueLimit, name: "argon2id")
        var random = Sodium.shared.randomBytes(count: 32)
        guard let dummy = Sodium.shared.hashPassword(&random, cost: cost) else {
            throw TwitterError(.internal, "libsodium could not hash with \(cost): not enough memory")
        }
        dummyHash = dummy
    }

    /// Hashes `password` for storage.
    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let normalized = PasswordPolicy.normalizedBytes(password)
        return try await pool.run {
            // The copy made on the hashing thread is the one libsodium wipes after use.
            var bytes = normalized
            guard let hash = Sodium.shared.hashPassword(&bytes, cost: cost) else {
                throw TwitterError(.internal, "password hashing failed: not enough memory for \(cost)")
            }
            return hash
        }
    }

    /// Checks `password` against `hash`.
    public func verify(_ password: String, against hash: String) async throws -> Bool {
        let normalized = PasswordPolicy.normalizedBytes(password)
        return try await pool.run {
            var bytes = normalized
            return Sodium.shared.verifyPassword(&bytes, hash: hash)
        }
    }

    /// Spends the time of one verification on a password that matches nothing.
    public func verifyAgainstDummy(_ password: String) async throws {
        _ = try await verify(password, against: dummyHash)
    }

    /// True when `hash` was made with another cost than the configured one.
    public func needsRehash(_ hash: String) -> Bool {
        Sodium.shared.needsRehash(hash, cost: cost)
    }
}
