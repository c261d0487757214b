import Foundation
import TwitterCore

/// Logs in with an e-mail address and a password (Argon2id).
///
/// Every failure is the same -32002 "Invalid email or password", and an unknown e-mail costs the same
/// hashing time as a wrong password, so neither the answer nor its timing tells whether an account exists.
public struct PasswordLoginProvider: AccountRegistering {
    /// `{email, password}`.
    public struct Credentials: Decodable, Sendable {
        /// The account's e-mail address, any case.
        public var email: String
        /// The password.
        public var password: String

        /// Creates credentials.
        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }
    }

    private let users: any UserStoring
    private let hasher: PasswordHasher

    /// Creates the provider over the user store and the hasher.
    public init(users: any UserStoring, hasher: PasswordHasher) {
        self.users = users
        self.hasher = hasher
    }

    /// `password`.
    public var name: String { "password" }

    /// `email` and `password`.
    public var credentialFields: [CredentialField] {
        [
            CredentialField("email", summary: "The account's e-mail address."),
            CredentialField("password", summary: "The account's password."),
        ]
    }

    /// Failures count against the e-mail address, whether or not an account has it.
    public func throttleKey(for credentials: Credentials) -> String? {
        credentials.email.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Verifies the password, and rehashes it when the configured cost has changed.
    public func logIn(with credentials: Credentials, context: LoginContext) async throws -> Authentication {
        let invalid = TwitterError(.invalidCredentials, "Invalid email or password")
        guard let user = try await users.user(email: credentials.email.trimmingCharacters(in: .whitespaces)),
            let stored = try await users.passwordHash(userID: user.id)
        else {
            try await hasher.verifyAgainstDummy(credentials.password)
            throw invalid
        }
        guard try await hasher.verify(credentials.password, against: stored) else { throw invalid }
        if hasher.needsRehash(stored) {
            try await users.setPasswordHash(try await hasher.hash(credentials.password), userID: user.id)
        }
        return Authentication(user: user)
    }
}

extension PasswordLoginProvider {
    /// Checks every field at once, suggests a username from the e-mail when none is asked for, and creates
    /// the account with the password's Argon2id hash.
    public func signUp(_ request: SignupRequest) async throws -> User {
        try rules.validate(request)
        let username: String
        if let chosen = request.username {
            username = chosen
        } else {
            username = try await UsernameSuggestion.make(from: request.email) { try await users.isUsernameTaken($0) }
        }
        let hash = try await hasher.hash(request.password)
        return try await users.createUser(email: request.email, username: username, passwordHash: hash)
    }

    private var rules: Validator<SignupRequest> {
        .all([
            .field(\.email, "email", AccountRules.email),
            .field(\.username, "username", .ifPresent(AccountRules.username)),
            .field(\.password, "password", hasher.policy),
        ])
    }
}
