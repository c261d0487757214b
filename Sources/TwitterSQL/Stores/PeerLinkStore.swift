import Foundation
import TwitterCore

/// Which local uid logs in as which account.
public struct PeerLinkStore: PeerLinkStoring {
    let database: any SQLDatabase
    /// Who hears of the unlinks committed here (the other daemons read them from the commit log).
    let observer: any CommitObserving

    /// Creates the store; its unlinks are reported to `observer`, nobody by default (tests of the rows).
    public init(database: any SQLDatabase, observer: any CommitObserving = UnobservedCommits()) {
        self.database = database
        self.observer = observer
    }

    /// A uid logs in as one account: linking it again moves the link.
    public func linkPeer(uid: UInt32, userID: Int64, at date: Date) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO peer_links (uid, user_id, linked_at)
                VALUES (\(Int64(uid)), \(userID), \(connection.dialect.stored(date)))
                ON CONFLICT (uid) DO UPDATE SET user_id = excluded.user_id, linked_at = excluded.linked_at
                """)
        }
    }

    /// Deletes the account's links, returning their uids.
    public func unlinkAll(userID: Int64) async throws -> [UInt32] {
        try await database.transaction { connection in
            try await connection.values(
                "DELETE FROM peer_links WHERE user_id = \(userID) RETURNING uid", as: Int64.self
            )
            .compactMap { UInt32(exactly: $0) }
        }
    }

    /// The account's links, by uid; a row no uid can be (written by hand) is skipped.
    public func links(userID: Int64) async throws -> [PeerLink] {
        try await database.read { connection in
            try await connection.rows(
                "SELECT uid, linked_at FROM peer_links WHERE user_id = \(userID) ORDER BY uid"
            ).compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return PeerLink(uid: uid, userID: userID, linkedAt: try row.column("linked_at"))
            }
        }
    }

    /// Only the link to `userID`: an account cannot unlink a uid that logs in as another.
    public func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let removed =
                try await connection.value(
                    "DELETE FROM peer_links WHERE uid = \(Int64(uid)) AND user_id = \(userID) RETURNING uid",
                    as: Int64.self) != nil
            return (removed, [.account(.revoked(.peerLink(uid: uid, userID: userID)))])
        }
    }

    /// Suspended or not: the login refuses a suspended account itself, with the reason.
    public func linkedUser(uid: UInt32) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(
                """
                SELECT \(unescaped: UserRows.columns) FROM users
                WHERE id = (SELECT user_id FROM peer_links WHERE uid = \(Int64(uid)))
                """
            ).map(UserRows.user(from:))
        }
    }

    /// The whole table, which holds one row per linked uid; a row no uid can be is skipped.
    public func links() async throws -> [(uid: UInt32, userID: Int64)] {
        try await database.read { connection in
            try await connection.rows("SELECT uid, user_id FROM peer_links").compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return (uid: uid, userID: try row.column("user_id", as: Int64.self))
            }
        }
    }
}
