/// The login providers the daemon offers, by name.
public struct LoginProviderRegistry: Sendable {
    private var providers: [String: AnyLoginProvider] = [:]
    private var order: [String] = []

    /// Creates an empty registry.
    public init() {}

    /// Adds `provider`; a second provider of the same name is a programming error caught at start-up.
    public mutating func register(_ provider: some LoginProviding) {
        add(AnyLoginProvider(provider))
    }

    /// Adds `provider`, which can also create accounts (`auth.signup`).
    public mutating func register(_ provider: some AccountRegistering) {
        add(AnyLoginProvider(provider))
    }

    private mutating func add(_ erased: AnyLoginProvider) {
        precondition(providers[erased.name] == nil, "login provider \(erased.name) registered twice")
        providers[erased.name] = erased
        order.append(erased.name)
    }

    /// The first provider that can create accounts, if one is registered (enabled, for a selection's subset).
    public var registering: AnyLoginProvider? {
        all.first { $0.signUp != nil }
    }

    /// The provider called `name`, if registered.
    public func provider(named name: String) -> AnyLoginProvider? {
        providers[name]
    }

    /// Every provider, in registration order.
    public var all: [AnyLoginProvider] {
        order.compactMap { providers[$0] }
    }

    /// The names, in registration order.
    public var names: [String] { order }

    /// Only the providers named in `names` (the `auth.providers` setting); an unknown name is an error
    /// that names the known ones.
    public func enabling(_ names: [String]) throws(TwitterError) -> LoginProviderRegistry {
        var subset = LoginProviderRegistry()
        for name in names {
            guard let provider = providers[name] else {
                throw TwitterError(
                    .invalidParams, "unknown login provider \"\(name)\"; known: \(order.joined(separator: ", "))"
                )
            }
            subset.providers[name] = provider
            subset.order.append(name)
        }
        return subset
    }
}
