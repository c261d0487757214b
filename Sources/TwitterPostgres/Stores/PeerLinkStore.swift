import Foundation
import PostgresNIO
import TwitterCore

/// Which local uid logs in as which account, in PostgreSQL.
struct PeerLinkStore: PeerLinkStoring {
    let database: PostgresStore

    /// A uid logs in as one account: linking it again moves the link.
    func linkPeer(uid: UInt32, userID: Int64, at date: Date) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO peer_links (uid, user_id, linked_at) VALUES (\(Int64(uid)), \(userID), \(date.storagePrecision))
                ON CONFLICT (uid) DO UPDATE SET user_id = excluded.user_id, linked_at = excluded.linked_at
                """)
        }
    }

    /// Deletes the account's links, returning their uids.
    func unlinkAll(userID: Int64) async throws -> [UInt32] {
        try await database.transaction { connection in
            try await connection.values(
                "DELETE FROM peer_links WHERE user_id = \(userID) RETURNING uid", as: Int64.self
            )
            .compactMap { UInt32(exactly: $0) }
        }
    }

    /// The account's links, by uid.
    func links(userID: Int64) async throws -> [PeerLink] {
        try await database.read { connection in
            try await connection.rows(
                "SELECT uid, linked_at FROM peer_links WHERE user_id = \(userID) ORDER BY uid"
            ).compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return PeerLink(uid: uid, userID: userID, linkedAt: try row.column("linked_at", as: Date?.self))
            }
        }
    }

    /// Only the link to `userID`: an account cannot unlink a uid that logs in as another.
    func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.value(
                "DELETE FROM peer_links WHERE uid = \(Int64(uid)) AND user_id = \(userID) RETURNING uid",
                as: Int64.self) != nil
        }
    }

    /// Suspended or not, as in the SQLite store: the login refuses a suspended account itself, with the reason.
    func linkedUser(uid: UInt32) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(
                """
                SELECT \(unescaped: UserRows.columns) FROM users
                WHERE id = (SELECT user_id FROM peer_links WHERE uid = \(Int64(uid)))
                """
            ).map(UserRows.user(from:))
        }
    }

    /// The whole table, which holds one row per linked uid; a row no uid can be (written by hand) is skipped.
    func links() async throws -> [(uid: UInt32, userID: Int64)] {
        try await database.read { connection in
            try await connection.rows("SELECT uid, user_id FROM peer_links").compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return (uid: uid, userID: try row.column("user_id", as: Int64.self))
            }
        }
    }
}
