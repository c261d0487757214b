import Foundation
import GRDB
import TwitterCore

/// Login throttle counts in SQLite, so they survive a restart.
public struct ThrottleStore: ThrottleStoring {
    let database: AppDatabase

    /// Creates the store over `database`.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// The state of `key`.
    public func throttleState(for key: String) async throws -> ThrottleState? {
        try await database.writer.read { db in try Self.fetch(db, key: key) }
    }

    /// Reads, transforms and writes `key` in one write transaction.
    public func updateThrottleState(
        for key: String, _ transform: @escaping @Sendable (ThrottleState?) -> ThrottleState
    ) async throws {
        try await database.writer.write { db in
            let next = transform(try Self.fetch(db, key: key))
            try db.execute(
                sql: """
                    INSERT INTO login_throttles (key, failures, last_failure_at, window_start, window_failures)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET failures = excluded.failures,
                        last_failure_at = excluded.last_failure_at, window_start = excluded.window_start,
                        window_failures = excluded.window_failures
                    """,
                arguments: [key, next.failures, next.lastFailureAt, next.windowStart, next.windowFailures]
            )
        }
    }

    /// Forgets `keys`.
    public func resetThrottleStates(for keys: [String]) async throws {
        try await database.writer.write { db in
            for key in keys { try db.execute(sql: "DELETE FROM login_throttles WHERE key = ?", arguments: [key]) }
        }
    }

    private static func fetch(_ db: Database, key: String) throws -> ThrottleState? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM login_throttles WHERE key = ?", arguments: [key])
        else {
            return nil
        }
        return ThrottleState(
            failures: row["failures"], lastFailureAt: row["last_failure_at"], windowStart: row["window_start"],
            windowFailures: row["window_failures"]
        )
    }
}
