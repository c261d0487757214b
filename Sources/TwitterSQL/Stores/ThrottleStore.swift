import Foundation
import TwitterCore

// @MemberwiseInit
/// Failed-login counters, so they survive a restart and are shared by every daemon on the database.
public struct ThrottleStore: ThrottleStoring {
    let database: any SQLDatabase

    /// The lock space of `SQLDialect.keyLock` that serializes updates of one throttle key ("th" in ASCII).
    static let lockSpace: Int32 = 0x7468

    /// The state of `key`.
    public func throttleState(for key: String) async throws -> ThrottleState? {
        try await database.read { connection in try await Self.fetch(connection, key: key) }
    }

    /// Reads, transforms and writes holding a lock on the key (a row lock cannot cover a key with no row yet),
    /// so two concurrent first failures both count, as SQLite's single writer makes them.
    public func updateThrottleState(
        for key: String, _ transform: @escaping @Sendable (ThrottleState?) -> ThrottleState
    ) async throws {
        try await database.transaction { connection in
            if let lock = connection.dialect.keyLock(Self.lockSpace, key) { try await connection.run(lock) }
            let next = transform(try await Self.fetch(connection, key: key))
            try await connection.run(
                SQLQuery(
                    Upsert.self, key, next.failures, connection.dialect.stored(next.lastFailureAt),
                    connection.dialect.stored(next.windowStart), next.windowFailures))
        }
    }

    private enum Upsert: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO login_throttles (key, failures, last_failure_at, window_start, window_failures)
            VALUES (\(param: 1), \(param: 2), \(param: 3), \(param: 4), \(param: 5))
            ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
                last_failure_at = excluded.last_failure_at, window_start = excluded.window_start,
                window_failures = excluded.window_failures
            """
    }

    /// Forgets `keys`.
    public func resetThrottleStates(for keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await database.transaction { connection in
            for key in keys { try await connection.run(SQLQuery(Reset.self, key)) }
        }
    }

    private enum Reset: SQLText {
        static let sql: SQLQuery = "DELETE FROM login_throttles WHERE key = \(param: 1)"
    }

    /// The stored state of `key`, if any.
    static func fetch(_ connection: any SQLConnection, key: String) async throws -> ThrottleState? {
        try await connection.firstRow(SQLQuery(State.self, key)).map { row in
            ThrottleState(
                failures: try row.column("failures"), lastFailureAt: try row.column("last_failure_at"),
                windowStart: try row.column("window_start"), windowFailures: try row.column("window_failures"))
        }
    }

    private enum State: SQLText {
        static let sql: SQLQuery =
            "SELECT failures, last_failure_at, window_start, window_failures FROM login_throttles WHERE key = \(param: 1)"
    }
}
