import Foundation
import GRDB
import TwitterCore

/// Which local uid logs in as which account, in SQLite.
public struct PeerLinkStore: PeerLinkStoring {
    let database: AppDatabase

    /// Creates the store over `database`.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Links `uid` to `userID`.
    public func linkPeer(uid: UInt32, userID: Int64, at date: Date) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO peer_links (uid, user_id, linked_at) VALUES (?, ?, ?)
                    ON CONFLICT(uid) DO UPDATE SET user_id = excluded.user_id, linked_at = excluded.linked_at
                    """,
                arguments: [Int64(uid), userID, date.storagePrecision]
            )
        }
    }

    /// Deletes the account's links, returning their uids.
    public func unlinkAll(userID: Int64) async throws -> [UInt32] {
        try await database.writer.write { db in
            try Int64.fetchAll(db, sql: "DELETE FROM peer_links WHERE user_id = ? RETURNING uid", arguments: [userID])
                .compactMap { UInt32(exactly: $0) }
        }
    }

    /// The account's links, by uid.
    public func links(userID: Int64) async throws -> [PeerLink] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT uid, linked_at FROM peer_links WHERE user_id = ? ORDER BY uid", arguments: [userID]
            ).compactMap { row in
                UInt32(exactly: row["uid"] as Int64).map {
                    PeerLink(uid: $0, userID: userID, linkedAt: row["linked_at"])
                }
            }
        }
    }

    /// Removes the link of `uid` to `userID`.
    public func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool {
        try await database.writer.write { db in
            try db.execute(
                sql: "DELETE FROM peer_links WHERE uid = ? AND user_id = ?", arguments: [Int64(uid), userID])
            return db.changesCount > 0
        }
    }

    /// The account `uid` is linked to.
    public func linkedUser(uid: UInt32) async throws -> User? {
        try await database.writer.read { db in
            try UserRecord.fetchOne(
                db,
                sql:
                    "SELECT users.* FROM users JOIN peer_links ON peer_links.user_id = users.id WHERE peer_links.uid = ?",
                arguments: [Int64(uid)]
            )?.user
        }
    }

    /// Reads the whole table: one row per linked uid.
    public func links() async throws -> [(uid: UInt32, userID: Int64)] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT uid, user_id FROM peer_links").compactMap { row in
                UInt32(exactly: row["uid"] as Int64).map { (uid: $0, userID: row["user_id"]) }
            }
        }
    }
}
