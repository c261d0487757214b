import CSodium

/// The only Swift face of libsodium: start-up, the library version, and the primitives the daemon uses.
///
/// Every call goes through `Sodium.shared`, whose creation runs `sodium_init` exactly once.
public struct Sodium: Sendable {
    /// The initialised library; creating it runs `sodium_init` once per process.
    public static let shared = Sodium()

    private init() {
        // sodium_init returns 1 when already initialised and -1 only when the system has no usable entropy
        // source; a daemon that cannot make secrets must not start, so that is a fatal start-up condition.
        guard sodium_init() >= 0 else { preconditionFailure("libsodium could not initialise its random source") }
    }

    /// The libsodium version string, such as "1.0.18".
    public var version: String {
        String(cString: sodium_version_string())
    }
}
