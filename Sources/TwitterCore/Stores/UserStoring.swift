/// Durable storage of accounts and their password hashes.
public protocol UserStoring: Sendable {
    /// Creates an account; throws `.conflict` naming `email` or `username` when either is taken.
    func createUser(email: String, username: String, passwordHash: String?) async throws -> User
    /// The account with `id`.
    func user(id: Int64) async throws -> User?
    /// The account whose e-mail is `email`, ignoring case.
    func user(email: String) async throws -> User?
    /// The account whose username is `username`, ignoring case; nil for a suspended account, which is as if gone.
    func user(username: String) async throws -> User?
    /// Whether `username` is taken, ignoring case, by any account or by the reservation of a deleted one.
    func isUsernameTaken(_ username: String) async throws -> Bool
    /// The stored password hash of `userID`, if the account has a password.
    func passwordHash(userID: Int64) async throws -> String?
    /// Replaces the password hash of `userID`.
    func setPasswordHash(_ hash: String, userID: Int64) async throws
}
