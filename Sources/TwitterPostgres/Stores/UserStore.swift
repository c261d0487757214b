import Foundation
import PostgresNIO
import TwitterCore

/// Accounts and password hashes in PostgreSQL.
struct UserStore: UserStoring {
    let database: PostgresStore

    func createUser(email: String, username: String, passwordHash: String?) async throws -> User {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func user(id: Int64) async throws -> User? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func user(email: String) async throws -> User? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func user(username: String) async throws -> User? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func isUsernameTaken(_ username: String) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func passwordHash(userID: Int64) async throws -> String? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func setPasswordHash(_ hash: String, userID: Int64) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
