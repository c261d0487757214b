import Foundation
import TwitterCore

// @MemberwiseInit
/// Which local uid of which host logs in as which account.
///
/// A uid names a person only on its own machine, and daemons of several hosts may share the database: every link
/// is keyed by (host, uid), and a daemon reads and writes the links of its own host's uids (`host`), except where
/// an account looks at or ends all of its links.
public struct PeerLinkStore: PeerLinkStoring {
    let database: any SQLDatabase
    /// Who hears of the unlinks committed here (the other daemons read them from the commit log); nobody by
    /// default (tests of the rows).
    var observer: any CommitObserving = UnobservedCommits()
    /// The identity of this daemon's machine (`HostIdentity`), whose uids this store's links name; "" for a store
    /// of no host (tests).
    var host: String = ""

    /// A uid logs in as one account: linking it again moves the link.
    public func linkPeer(uid: UInt32, userID: Int64, at date: Date) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO peer_links (host, uid, user_id, linked_at)
                VALUES (\(host), \(Int64(uid)), \(userID), \(connection.dialect.stored(date)))
                ON CONFLICT (host, uid) DO UPDATE SET user_id = excluded.user_id, linked_at = excluded.linked_at
                """)
        }
    }

    /// The account's links on every host, so its owner sees each, by host and uid; a row no uid can be (written by
    /// hand) is skipped.
    public func links(userID: Int64) async throws -> [PeerLink] {
        try await database.read { connection in
            try await connection.rows(
                "SELECT host, uid, linked_at FROM peer_links WHERE user_id = \(userID) ORDER BY host, uid"
            ).compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return PeerLink(
                    uid: uid, userID: userID, linkedAt: try row.column("linked_at"), host: try row.column("host"))
            }
        }
    }

    /// Only the link of this host's `uid` to `userID`: an account cannot unlink a uid that logs in as another.
    public func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let removed =
                try await connection.value(
                    """
                    DELETE FROM peer_links WHERE host = \(host) AND uid = \(Int64(uid)) AND user_id = \(userID)
                    RETURNING uid
                    """,
                    as: Int64.self) != nil
            return (removed, [.account(.revoked(.peerLink(uid: uid, userID: userID)))])
        }
    }

    /// The account this host's `uid` is linked to, suspended or not: the login refuses a suspended account itself,
    /// with the reason.
    public func linkedUser(uid: UInt32) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(
                """
                SELECT \(unescaped: UserRows.columns) FROM users
                WHERE id = (SELECT user_id FROM peer_links WHERE host = \(host) AND uid = \(Int64(uid)))
                """
            ).map(UserRows.user(from:))
        }
    }

    /// This host's links, one row per linked uid (what makes an admin is a uid of this machine); a row no uid can
    /// be is skipped.
    public func links() async throws -> [(uid: UInt32, userID: Int64)] {
        try await database.read { connection in
            try await connection.rows("SELECT uid, user_id FROM peer_links WHERE host = \(host)").compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return (uid: uid, userID: try row.column("user_id", as: Int64.self))
            }
        }
    }
}
