/// Something the daemon depends on that can say whether it answers: the store, for `system.health` and the
/// watchdog.
public protocol HealthChecking: Sendable {
    /// Returns when a read is answered; throws otherwise.
    func ping() async throws
}

/// The versions of the libraries the daemon runs on, for `system.version`; the daemon's main fills them in,
/// since only it names the store and the crypto library.
public struct ComponentVersions: Sendable, Equatable {
    /// libsodium's version string.
    public var libsodium: String
    /// SQLite's version string.
    public var sqlite: String

    /// Creates the versions.
    public init(libsodium: String, sqlite: String) {
        self.libsodium = libsodium
        self.sqlite = sqlite
    }
}
