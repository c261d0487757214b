/// Something the daemon depends on that can say whether it answers: the store, for `system.health` and the
/// watchdog.
public protocol HealthChecking: Sendable {
    /// Returns when a read is answered; throws otherwise.
    func ping() async throws

    /// True when this process's own threads answer the reads (SQLite): a read that never answers then means the
    /// daemon is wedged, and the watchdog should restart it. False for a database server (PostgreSQL), whose
    /// silence a restart of the daemon would not cure: the daemon is then degraded, not stuck.
    var answersInProcess: Bool { get }

    /// Whether what it commits is known to reach the disk: `failed` once a sync of its log failed, until restart.
    var durability: Durability { get }
}

extension HealthChecking {
    /// Durable: a database server keeps its own (PostgreSQL stops itself after a failed fsync).
    public var durability: Durability { .durable }
}

/// The versions of the libraries the daemon runs on, for `system.version`; the daemon's main fills them in,
/// since only it names the store and the crypto library.
public struct ComponentVersions: Sendable, Equatable {
    /// libsodium's version string.
    public var libsodium: String
    /// SQLite's version string.
    public var sqlite: String
    /// The store the daemon serves from: "sqlite" or "postgresql".
    public var store: String
    /// That store's version: SQLite's, or the PostgreSQL server's.
    public var storeVersion: String

    /// Creates the versions; the store is SQLite unless named.
    public init(libsodium: String, sqlite: String, store: String = "sqlite", storeVersion: String? = nil) {
        self.libsodium = libsodium
        self.sqlite = sqlite
        self.store = store
        self.storeVersion = storeVersion ?? sqlite
    }
}
