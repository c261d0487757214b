import CSodium

/// The cost of an Argon2id password hash: passes over memory and memory in bytes.
public struct PasswordHashCost: Sendable, Equatable, CustomStringConvertible {
    /// crypto_pwhash's opslimit.
    public var operations: Int
    /// crypto_pwhash's memlimit, in bytes.
    public var memoryBytes: Int

    /// Creates a cost.
    public init(operations: Int, memoryBytes: Int) {
        self.operations = operations
        self.memoryBytes = memoryBytes
    }

    /// libsodium's INTERACTIVE limits (2 passes, 64 MiB): the default for logins.
    public static let interactive = PasswordHashCost(
        operations: Int(crypto_pwhash_opslimit_interactive()), memoryBytes: Int(crypto_pwhash_memlimit_interactive())
    )

    /// libsodium's smallest accepted limits; for tests that hash many passwords.
    public static let minimum = PasswordHashCost(
        operations: Int(crypto_pwhash_opslimit_min()), memoryBytes: Int(crypto_pwhash_memlimit_min())
    )

    /// `ops=2 mem=64MiB`, for logs.
    public var description: String { "ops=\(operations) mem=\(memoryBytes >> 20)MiB" }
}

extension Sodium {
    /// Hashes `password` with Argon2id (`crypto_pwhash_str`) and wipes the buffer afterwards.
    ///
    /// Returns the self-describing hash string (algorithm, cost and salt included), or nil when libsodium
    /// could not allocate the memory the cost asks for.
    public func hashPassword(_ password: inout [UInt8], cost: PasswordHashCost) -> String? {
        defer { zero(&password) }
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let result = withCharacters(of: password) { chars, count in
            crypto_pwhash_str(&output, chars, UInt64(count), UInt64(cost.operations), Int(cost.memoryBytes))
        }
        guard result == 0 else { return nil }
        // The hash is ASCII, ended by its NUL.
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Checks `password` against a stored hash (`crypto_pwhash_str_verify`) and wipes the buffer afterwards.
    public func verifyPassword(_ password: inout [UInt8], hash: String) -> Bool {
        defer { zero(&password) }
        return withCharacters(of: password) { chars, count in
            crypto_pwhash_str_verify(hash, chars, UInt64(count)) == 0
        }
    }

    private func withCharacters<R>(of bytes: [UInt8], _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
        NonNullBytes.with(bytes) { pointer, count in
            pointer.withMemoryRebound(to: CChar.self, capacity: max(count, 1)) { body($0, count) }
        }
    }

    /// True when `hash` was made with another cost (or algorithm) than `cost`, so it should be remade.
    public func needsRehash(_ hash: String, cost: PasswordHashCost) -> Bool {
        crypto_pwhash_str_needs_rehash(hash, UInt64(cost.operations), Int(cost.memoryBytes)) != 0
    }
}
