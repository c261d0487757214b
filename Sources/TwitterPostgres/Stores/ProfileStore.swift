import Foundation
import PostgresNIO
import TwitterCore

/// Profiles in PostgreSQL.
struct ProfileStore: ProfileStoring {
    let database: PostgresStore

    func profile(userID: Int64) async throws -> Profile? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func profile(username: String) async throws -> Profile? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func updateProfile(userID: Int64, patch: ProfilePatch, expectedVersion: Int?) async throws -> ProfileUpdate {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
