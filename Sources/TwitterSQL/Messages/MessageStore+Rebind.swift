import Foundation
import TwitterCore

/// The start-up re-seal of texts sealed before they were bound to their rows (issue #48).
extension MessageStore {
    /// Reads a batch of unmarked texts by id and writes each one's re-sealed form back only if the row still
    /// holds the bytes read: on a shared PostgreSQL database two daemons may start at once, and the second
    /// writer's update then finds the first one's (marked) text and changes nothing; a deletion in between
    /// (NULL) wins the same way. Every row holds either its old text or a bound one at every moment, so a pass
    /// cut short leaves nothing unreadable to the next one.
    public func rebindSealedTexts(
        marker: [UInt8], after: Int64, limit: Int,
        _ rebind: @escaping @Sendable (MessagePlace, [UInt8]) -> [UInt8]?
    ) async throws -> RebindBatch {
        try await database.transaction { connection in
            // `substr` takes bytes of a BLOB (SQLite) and of a bytea (PostgreSQL) alike.
            let rows = try await connection.rows(
                """
                SELECT id, conversation_id, sealed_text FROM messages
                WHERE id > \(after) AND sealed_text IS NOT NULL AND substr(sealed_text, 1, 4) <> \(Data(marker))
                ORDER BY id LIMIT \(Int64(limit))
                """)
            var batch = RebindBatch(lastID: nil, rebound: 0, skipped: 0)
            for row in rows {
                let id = try row.column("id", as: Int64.self)
                batch.lastID = id
                let old = try row.column("sealed_text", as: Data.self)
                let place = MessagePlace(messageID: id, conversationID: try row.column("conversation_id"))
                guard let bound = rebind(place, Array(old)),
                    try await connection.value(
                        """
                        UPDATE messages SET sealed_text = \(Data(bound)) WHERE id = \(id) AND sealed_text = \(old)
                        RETURNING id
                        """, as: Int64.self) != nil
                else {
                    batch.skipped += 1
                    continue
                }
                batch.rebound += 1
            }
            return batch
        }
    }
}
