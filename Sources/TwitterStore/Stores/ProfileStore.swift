import Foundation
import GRDB
import TwitterCore

/// Profiles in SQLite; an update writes only the columns whose value changed.
public struct ProfileStore: ProfileStoring {
    let database: AppDatabase

    /// Creates the store over `database`.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// The profile of `userID`.
    public func profile(userID: Int64) async throws -> Profile? {
        try await database.writer.read { db in try UserRecord.fetchOne(db, key: userID)?.profile }
    }

    /// The profile of `username`.
    public func profile(username: String) async throws -> Profile? {
        try await database.writer.read { db in
            try UserRecord.filter(
                UserRecord.Columns.usernameKey == UserRecord.key(username) && Column("suspended_at") == nil
            ).fetchOne(db)?.profile
        }
    }

    /// Compares, checks and writes in one transaction, so a concurrent edit of another field is kept.
    public func updateProfile(userID: Int64, patch: ProfilePatch, expectedVersion: Int?) async throws -> ProfileUpdate {
        try await database.writer.write { db in
            guard var record = try UserRecord.fetchOne(db, key: userID) else { throw TwitterError.notFound("Account") }
            if let expectedVersion, expectedVersion != record.version {
                throw TwitterError(
                    .conflict,
                    "The profile changed meanwhile: it is at version \(record.version), not \(expectedVersion)",
                    details: ["currentVersion": .int(record.version)]
                )
            }
            let changes = patch.differences(from: record.profile)
            guard !changes.fieldNames.isEmpty else { return ProfileUpdate(profile: record.profile, changed: []) }
            try Self.checkUnique(changes, userID: userID, db: db)
            changes.apply(to: &record)
            record.version += 1
            record.updatedAt = Date().storagePrecision
            var assignments = changes.columnAssignments
            assignments.append(Column("version").set(to: record.version))
            assignments.append(Column("updated_at").set(to: record.updatedAt))
            try UserRecord.filter(key: userID).updateAll(db, assignments)
            return ProfileUpdate(profile: record.profile, changed: changes.fieldNames)
        }
    }

    private static func checkUnique(_ changes: ProfilePatch, userID: Int64, db: Database) throws {
        var taken: [String: String] = [:]
        if let email = changes.email,
            try UserRecord.filter(
                UserRecord.Columns.emailKey == UserRecord.key(email) && UserRecord.Columns.id != userID
            )
            .fetchCount(db) > 0
        {
            taken["email"] = "Email is already taken"
        }
        if let username = changes.username,
            try UserRecord.filter(
                UserRecord.Columns.usernameKey == UserRecord.key(username) && UserRecord.Columns.id != userID
            )
            .fetchCount(db) > 0 || AccountStanding.isReserved(db, usernameKey: UserRecord.key(username))
        {
            taken["username"] = "Username is already taken"
        }
        guard taken.isEmpty else {
            throw TwitterError(.conflict, taken.values.sorted().joined(separator: "; "), fields: taken)
        }
    }
}
