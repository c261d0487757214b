/// Something that can decode a provider's credentials from a request; the server backs it with JSON.
public protocol CredentialsSource: Sendable {
    /// Decodes the credentials as `type`, or throws a `DecodingError` naming the bad member.
    func decode<Credentials: Decodable>(_ type: Credentials.Type) throws -> Credentials
}

/// A login provider with its credentials type erased, so providers of different shapes sit in one registry.
///
/// Built from closures that capture the concrete provider; nothing needs to be overridden.
public struct AnyLoginProvider: Sendable {
    /// The provider's name.
    public let name: String
    /// The provider's credential members.
    public let credentialFields: [CredentialField]
    private let logInFromSource:
        @Sendable (any CredentialsSource, LoginContext, LoginThrottle?) async throws
            -> Authentication
    /// Creates an account, for providers that can (`AccountRegistering`); nil for the others.
    public let signUp: (@Sendable (SignupRequest) async throws -> User)?

    /// Erases `provider`, which can also create accounts.
    public init<Provider: AccountRegistering>(_ provider: Provider) {
        self.init(loggingIn: provider, signUp: { try await provider.signUp($0) })
    }

    /// Erases `provider`.
    public init<Provider: LoginProviding>(_ provider: Provider) {
        self.init(loggingIn: provider, signUp: nil)
    }

    private init<Provider: LoginProviding>(
        loggingIn provider: Provider, signUp: (@Sendable (SignupRequest) async throws -> User)?
    ) {
        self.signUp = signUp
        name = provider.name
        credentialFields = provider.credentialFields
        logInFromSource = { source, context, throttle in
            let credentials = try source.decode(Provider.Credentials.self)
            guard let throttle else { return try await provider.logIn(with: credentials, context: context) }
            let keys = throttle.keys(account: provider.throttleKey(for: credentials), peer: context.peer)
            return try await throttle.guarding(keys) { try await provider.logIn(with: credentials, context: context) }
        }
    }

    /// Decodes the credentials from `source` and logs in, counting failures in `throttle` when given.
    public func logIn(
        from source: any CredentialsSource, context: LoginContext, throttle: LoginThrottle? = nil
    ) async throws -> Authentication {
        try await logInFromSource(source, context, throttle)
    }
}
