/// A way to log in, whose credentials have their own shape: an e-mail and password, a token, or nothing
/// but the kernel's word on who is connecting.
///
/// The daemon hosts providers as plugins behind `AnyLoginProvider`; a provider never sees JSON, only its
/// own decoded `Credentials`.
public protocol LoginProviding<Credentials>: Sendable {
    /// What a client sends as `credentials` for this provider.
    associatedtype Credentials: Decodable & Sendable

    /// The name clients pass as `provider` (`password`, `token`, `peer`).
    var name: String { get }

    /// The members of `Credentials`, for `auth.providers` and rpc.discover.
    var credentialFields: [CredentialField] { get }

    /// The key under which failed attempts are counted for one account, such as the lowercased e-mail;
    /// nil when the credentials name no account.
    func throttleKey(for credentials: Credentials) -> String?

    /// Authenticates and returns the user, or throws `TwitterError` (`.invalidCredentials` on a bad login).
    func logIn(with credentials: Credentials, context: LoginContext) async throws -> Authentication
}

extension LoginProviding {
    /// No account-level throttling unless the provider names an account.
    public func throttleKey(for credentials: Credentials) -> String? { nil }
}

/// One member of a provider's credentials, described for clients.
public struct CredentialField: Sendable, Hashable, Codable {
    /// The member's name.
    public var name: String
    /// Its JSON type (`string`).
    public var type: String
    /// What to put there.
    public var summary: String
    /// Whether it must be present.
    public var isRequired: Bool

    /// Creates a field description.
    public init(_ name: String, type: String = "string", summary: String, required: Bool = true) {
        self.name = name
        self.type = type
        self.summary = summary
        self.isRequired = required
    }
}

// @MemberwiseInit
/// What a provider knows of the connection a login arrives on.
public struct LoginContext: Sendable {
    /// SO_PEERCRED of the connection.
    public var peer: PeerCredentials
}

// @MemberwiseInit
/// A successful login: the user, and the session it resumed when the credentials were a session token.
public struct Authentication: Sendable, Equatable {
    /// The authenticated user.
    public var user: User
    /// Set when the login resumed an existing session (token login); nil when a new session is to be issued.
    public var resumedSession: IssuedSession?
}
