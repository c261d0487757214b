import Foundation
import TwitterCore

/// Profiles; an update writes only the columns whose value changed. A change of an account's place on the web is
/// an ordered write (`AccountEvent.webVisibilityChanged`), which the read model's set of the accounts off the web
/// follows.
public struct ProfileStore: ProfileStoring {
    let database: ObservedDatabase

    /// Creates the store; changes of an account's place on the web are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Suspended or not: the owner edits its own profile by id.
    public func profile(userID: Int64) async throws -> Profile? {
        try await database.read { connection in
            try await connection.firstRow("SELECT \(unescaped: UserRows.columns) FROM users WHERE id = \(userID)")
                .map(UserRows.profile(from:))
        }
    }

    /// Leaves out a suspended account, which others see as gone.
    public func profile(username: String) async throws -> Profile? {
        try await database.read { connection in
            try await UserRows.shown(connection, username: username).map(UserRows.profile(from:))
        }
    }

    /// Compares, checks and writes in one transaction holding the row's lock (`FOR UPDATE`), so concurrent
    /// updates take turns: each sees the other's version, and a concurrent edit of another field is kept.
    public func updateProfile(userID: Int64, patch: ProfilePatch, expectedVersion: Int?) async throws -> ProfileUpdate {
        do {
            return try await database.transaction { connection in
                guard
                    let stored = try await connection.firstRow(
                        """
                        SELECT \(unescaped: UserRows.columns) FROM users WHERE id = \(userID)\(lock: .forUpdate)
                        """
                    ).map(UserRows.profile(from:))
                else { throw TwitterError.notFound("Account") }
                if let expectedVersion, expectedVersion != stored.version {
                    throw TwitterError(
                        .conflict,
                        "The profile changed meanwhile: it is at version \(stored.version), not \(expectedVersion)",
                        details: ["currentVersion": .int(stored.version)])
                }
                let changes = patch.differences(from: stored)
                guard !changes.fieldNames.isEmpty else { return ProfileUpdate(profile: stored, changed: []) }
                if let conflict = UserRows.conflict(
                    try await UserRows.taken(
                        connection, email: changes.email, username: changes.username, besides: userID))
                {
                    throw conflict
                }
                var updated = changes.applied(to: stored)
                updated.version += 1
                updated.updatedAt = connection.dialect.stored(Date())
                try await connection.run(
                    changes.update(userID: userID, version: updated.version, at: updated.updatedAt))
                return ProfileUpdate(profile: updated, changed: changes.fieldNames)
            }
        } catch {
            throw UserRows.conflict(from: error, in: database.database) ?? error
        }
    }
}

extension ProfilePatch {
    /// `profile` with this patch's fields written over it.
    func applied(to profile: Profile) -> Profile {
        var profile = profile
        if let firstName { profile.firstName = firstName }
        if let lastName { profile.lastName = lastName }
        if let email { profile.email = email }
        if let age { profile.age = age }
        if let username { profile.username = username }
        if let bio { profile.bio = bio }
        return profile
    }

    /// The UPDATE of `userID`'s row setting the patch's columns only, so a concurrent edit of another column is
    /// never overwritten, with the new `version` and `updatedAt`.
    func update(userID: Int64, version: Int, at updatedAt: Date) -> SQLQuery {
        var assignments: [SQLQuery] = []
        /// Nil is "leave as it is", never NULL: a patch cannot clear a column.
        func set(_ column: String, _ value: (some SQLBindable)?) {
            guard let value else { return }
            assignments.append("\(unescaped: column) = \(value)")
        }
        set("first_name", firstName)
        set("last_name", lastName)
        set("email", email)
        set("email_key", email.map(UserRows.key))
        set("age", age)
        set("username", username)
        set("username_key", username.map(UserRows.key))
        set("bio", bio)
        set("version", version)
        set("updated_at", updatedAt)
        return "UPDATE users SET \(assignments.joined(separator: ", ")) WHERE id = \(userID)"
    }
}
