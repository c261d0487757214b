import TwitterCore

/// Logs in with a session token (resuming that session, as twctl does between runs) or a personal token.
public struct TokenLoginProvider: LoginProviding {
    /// `{token}`.
    public struct Credentials: Decodable, Sendable {
        /// A `tws_` session token or a `twp_` personal token.
        public var token: String

        /// Creates credentials.
        public init(token: String) {
            self.token = token
        }
    }

    private let service: SessionService
    private let users: any UserStoring

    /// Creates the provider.
    public init(service: SessionService, users: any UserStoring) {
        self.service = service
        self.users = users
    }

    /// `token`.
    public var name: String { "token" }

    /// `token`.
    public var credentialFields: [CredentialField] {
        [CredentialField("token", summary: "A session token (tws_…) or a personal access token (twp_…).")]
    }

    /// Resumes the token's session; a malformed, unknown, revoked or expired token fails alike.
    public func logIn(with credentials: Credentials, context: LoginContext) async throws -> Authentication {
        guard let record = try await service.redeem(credentials.token),
            let user = try await users.user(id: record.userID)
        else {
            throw TwitterError(.invalidCredentials, "Invalid, expired or revoked token")
        }
        let session = IssuedSession(
            id: record.id, token: credentials.token, expiresAt: record.expiresAt, kind: record.kind,
            scopes: record.scopes, appID: record.appID)
        return Authentication(user: user, resumedSession: session)
    }
}
