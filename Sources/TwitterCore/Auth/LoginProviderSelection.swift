import Synchronization

/// Every registered provider, and the subset enabled now; a reload may change the subset while running.
public final class LoginProviderSelection: Sendable {
    /// Every provider the daemon was built with.
    public let registered: LoginProviderRegistry
    private let enabledNow: Mutex<LoginProviderRegistry>

    /// Starts with `names` enabled (every registered provider when nil); an unknown name is an error.
    public init(registered: LoginProviderRegistry, enabled names: [String]?) throws(TwitterError) {
        self.registered = registered
        let enabled = try names.map { (names) throws(TwitterError) in try registered.enabling(names) } ?? registered
        enabledNow = Mutex(enabled)
    }

    /// The providers enabled now.
    public var enabled: LoginProviderRegistry {
        enabledNow.withLock { $0 }
    }

    /// Enables exactly `names` (every registered provider when nil), or throws and changes nothing.
    public func enable(_ names: [String]?) throws(TwitterError) {
        let next = try names.map { (names) throws(TwitterError) in try registered.enabling(names) } ?? registered
        enabledNow.withLock { $0 = next }
    }
}
