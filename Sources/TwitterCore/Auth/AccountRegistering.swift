// @MemberwiseInit
/// What `auth.signup` asks for: an e-mail address, a password, and a username (suggested when absent).
public struct SignupRequest: Sendable {
    /// The e-mail address, trimmed.
    public var email: String
    /// The password, as typed.
    public var password: String
    /// The username asked for, if any.
    public var username: String?
}

/// A login provider that can also create the account it logs in to. `auth.signup` goes through the enabled
/// provider that can, so signing up follows the configuration instead of one plugin wired into the server.
public protocol AccountRegistering: LoginProviding {
    /// Checks the request by the provider's rules (every failing field at once) and creates the account.
    func signUp(_ request: SignupRequest) async throws -> User
}
