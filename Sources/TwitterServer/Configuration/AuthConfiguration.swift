import NIOCore

/// The login settings: which providers are on, the password rules and cost, and session lifetime.
public struct AuthConfiguration: Sendable, Equatable {
    /// The enabled providers, by name; every registered provider by default.
    public var providers: [String]?
    /// The shortest password accepted, in code points.
    public var passwordMinimumLength = 8
    /// The Argon2id passes of new hashes (`password_ops_limit`); nil keeps the hashing library's default.
    public var passwordOperations: Int?
    /// The Argon2id memory of new hashes, in bytes (`password_mem_limit_kib`); nil keeps the library's default.
    public var passwordMemoryBytes: Int?
    /// Threads that hash passwords; one per core by default, measured (bench/sweep-hashing.sh, 2 cores): two
    /// threads log in 1.2 times as many as one (Argon2id's 64 MiB passes share the memory bus), at a ping p99
    /// of 76–93 µs against 44 µs while logins fill the pool; four gain another 13 % but leave the event loops
    /// less of the cores (probe p99 101–128 µs) for 256 MiB of hashing memory.
    public var hashingThreads = System.coreCount
    /// Hashes that may wait for a thread before logins are answered -32008.
    public var hashingQueueLimit = 64
    /// Days a session lasts after its last use.
    public var sessionDays = 30

    /// The defaults.
    public init() {}
}
