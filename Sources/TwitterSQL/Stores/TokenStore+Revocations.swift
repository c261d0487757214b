import Foundation
import TwitterCore

/// The revocations live connections rest on, each written with its entry for the other daemons in one ordered
/// write (issue #48: the broadcast was a second write after the revocation's own, and when it failed the call
/// still answered success while other daemons kept serving the revoked credential). On PostgreSQL the entry goes
/// to the commit log in the same transaction, and the write returns once the other current daemons have applied
/// it; if it cannot be logged, nothing is revoked and the call fails. On SQLite there is no other daemon.
extension TokenStore {
    /// Only the owner's live token: revoking twice, or another's, answers false and logs nothing.
    public func revokeToken(id: Int64, userID: Int64, reason: Revocation.Reason, at date: Date) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let revoked =
                try await connection.value(
                    """
                    UPDATE tokens SET revoked_at = \(connection.dialect.stored(date))
                    WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL RETURNING id
                    """, as: Int64.self) != nil
            let told: [CommitEvent] =
                revoked ? [.account(.revoked(.token(id: id, userID: userID, reason: reason)))] : []
            return (revoked, told)
        }
    }

    /// Sessions but `keeping`, personal tokens with `everything`, and every peer link, with the revocations that
    /// cover what ended; logged even when nothing was left to end, as a live connection may still rest on it.
    public func endCredentials(
        of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason, at date: Date
    ) async throws -> [Revocation] {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let kinds = everything ? [TokenKind.session, .personal] : [.session]
            for kind in kinds {
                try await connection.run(
                    """
                    UPDATE tokens SET revoked_at = \(connection.dialect.stored(date))
                    WHERE user_id = \(userID) AND kind = \(kind.rawValue) AND revoked_at IS NULL
                        AND id <> \(keeping ?? 0)
                    """)
            }
            let unlinked = try await connection.values(
                "DELETE FROM peer_links WHERE user_id = \(userID) RETURNING uid", as: Int64.self
            ).compactMap { UInt32(exactly: $0) }
            let revocations: [Revocation] =
                everything
                ? [.account(userID: userID, reason: reason)]
                : [.otherSessions(userID: userID, keeping: keeping)]
                    + unlinked.sorted().map { .peerLink(uid: $0, userID: userID) }
            return (revocations, revocations.map { .account(.revoked($0)) })
        }
    }
}
