import Synchronization

/// The settings a reload (SIGHUP) may change while the daemon runs: the limits and the enabled providers.
///
/// Readers take a snapshot per connection or per line, so a reload applies without dropping anyone.
public final class LiveSettings: Sendable {
    private let current: Mutex<ServerConfiguration.Limits>

    /// Starts with `limits`.
    public init(limits: ServerConfiguration.Limits) {
        current = Mutex(limits)
    }

    /// The limits in force now.
    public var limits: ServerConfiguration.Limits {
        current.withLock { $0 }
    }

    /// Replaces the limits.
    public func update(limits: ServerConfiguration.Limits) {
        current.withLock { $0 = limits }
    }
}
