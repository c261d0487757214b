import Foundation
import TwitterCore

// @MemberwiseInit
/// Write rate buckets, one row per account and action, and signup buckets, one per uid of a host.
public struct RateBucketStore: RateBucketStoring {
    let database: any SQLDatabase
    /// The identity of this daemon's machine, whose uids' signup buckets it reads and writes (`HostIdentity`): a
    /// uid is a person only on its own host.
    var host: String = ""

    /// Unknown actions (written by a later version) are skipped.
    public func allBuckets() async throws -> [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)] {
        try await database.read { connection in
            try await connection.rows("SELECT user_id, action, tokens, updated_at FROM rate_buckets").compactMap {
                row in
                guard let action = RateLimitedAction(rawValue: try row.column("action")) else { return nil }
                return (
                    userID: try row.column("user_id", as: Int64.self), action: action,
                    bucket: TokenBucket(tokens: try row.column("tokens"), updatedAt: try row.column("updated_at"))
                )
            }
        }
    }

    /// Upserts every bucket in one transaction, many rows a statement (`upsert`); a bucket of a deleted account
    /// is skipped rather than failing the others (the daemon saves buckets while accounts come and go).
    public func save(_ buckets: [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)]) async throws {
        let latest = Self.lastOfEach(buckets) { "\($0.userID) \($0.action.rawValue)" }
        guard !latest.isEmpty else { return }
        try await database.transaction { connection in
            try await Self.upsert(
                latest, on: connection,
                values: {
                    [
                        .integer($0.userID), .text($0.action.rawValue), .real($0.bucket.tokens),
                        .date($1.stored($0.bucket.updatedAt)),
                    ]
                },
                into: { rows in
                    """
                    INSERT INTO rate_buckets (user_id, action, tokens, updated_at)
                    SELECT column1, column2, column3, column4 FROM (VALUES \(rows)) AS bucket
                    WHERE EXISTS(SELECT 1 FROM users WHERE users.id = bucket.column1)
                    ON CONFLICT (user_id, action) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                    """
                })
        }
    }

    /// Reads this host's signup buckets; a row no uid can be (written by hand) is skipped.
    public func allSignupBuckets() async throws -> [(uid: UInt32, bucket: TokenBucket)] {
        try await database.read { connection in
            try await connection.rows(
                "SELECT uid, tokens, updated_at FROM signup_buckets WHERE host = \(host)"
            ).compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return (
                    uid: uid,
                    bucket: TokenBucket(tokens: try row.column("tokens"), updatedAt: try row.column("updated_at"))
                )
            }
        }
    }

    /// Upserts every signup bucket of this host's uids in one transaction, many rows a statement.
    public func saveSignupBuckets(_ buckets: [(uid: UInt32, bucket: TokenBucket)]) async throws {
        let latest = Self.lastOfEach(buckets) { "\($0.uid)" }
        guard !latest.isEmpty else { return }
        try await database.transaction { [host] connection in
            try await Self.upsert(
                latest, on: connection,
                values: {
                    [
                        .text(host), .integer(Int64($0.uid)), .real($0.bucket.tokens),
                        .date($1.stored($0.bucket.updatedAt)),
                    ]
                },
                into: { rows in
                    """
                    INSERT INTO signup_buckets (host, uid, tokens, updated_at)
                    SELECT column1, column2, column3, column4 FROM (VALUES \(rows)) AS bucket WHERE TRUE
                    ON CONFLICT (host, uid) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                    """
                })
        }
    }

    /// The last entry given for each key, in their order: an upsert may not touch a row twice in one statement.
    private static func lastOfEach<Entry>(_ entries: [Entry], key: (Entry) -> String) -> [Entry] {
        var latest: [String: Int] = [:]
        for (index, entry) in entries.enumerated() { latest[key(entry)] = index }
        return latest.values.sorted().map { entries[$0] }
    }

    /// The most rows a statement, well under SQLite's 32,766 values and PostgreSQL's 65,535.
    static let rowsPerStatement = 1000

    /// Runs `statement` with the rows' values in place of its `VALUES` list, `rowsPerStatement` rows at a time. (`VALUES`
    /// names its columns `column1`, `column2`… on both databases; SQLite wants a `WHERE` before an upsert's
    /// `ON CONFLICT` in an `INSERT … SELECT`.)
    private static func upsert<Entry>(
        _ entries: [Entry], on connection: any SQLConnection, values: (Entry, any SQLDialect) -> [SQLValue],
        into statement: (SQLQuery) -> SQLQuery
    ) async throws {
        for start in stride(from: 0, to: entries.count, by: rowsPerStatement) {
            let chunk = entries[start..<min(start + rowsPerStatement, entries.count)]
            let rows = chunk.map { entry -> SQLQuery in
                "(\(values(entry, connection.dialect).map { "\($0)" as SQLQuery }.joined(separator: ", ")))"
            }
            try await connection.run(statement(rows.joined(separator: ", ")))
        }
    }
}
