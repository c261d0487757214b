import Foundation
import PostgresNIO
import TwitterCore

/// Failed-login counters in PostgreSQL, so they survive a restart and are shared by every daemon.
struct ThrottleStore: ThrottleStoring {
    let database: PostgresStore

    /// The first key of the two-key advisory locks that serialize updates of one throttle key ("th" in ASCII);
    /// the two-key space is apart from the one-key space of the order and migration locks.
    static let lockClass: Int32 = 0x7468

    /// The state of `key`.
    func throttleState(for key: String) async throws -> ThrottleState? {
        try await database.read { connection in try await Self.fetch(connection, key: key) }
    }

    /// Reads, transforms and writes under a transaction-level advisory lock on the key: a row lock cannot cover
    /// a key with no row yet, and two concurrent first failures must both count, as SQLite's single writer makes
    /// them. Dates are kept to the millisecond, as the SQLite store keeps them.
    func updateThrottleState(for key: String, _ transform: @escaping @Sendable (ThrottleState?) -> ThrottleState)
        async throws
    {
        try await database.transaction { connection in
            try await connection.run(Prepared<Lock>(Self.lockClass, key))
            let next = transform(try await Self.fetch(connection, key: key))
            try await connection.run(
                Prepared<Upsert>(
                    key, next.failures, next.lastFailureAt.storagePrecision,
                    next.windowStart.storagePrecision, next.windowFailures))
        }
    }

    enum Lock: PreparedText {
        static let sql = "SELECT pg_advisory_xact_lock($1, hashtext($2))"
    }

    enum Upsert: PreparedText {
        static let sql = """
            INSERT INTO login_throttles (key, failures, last_failure_at, window_start, window_failures)
            VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
                last_failure_at = excluded.last_failure_at, window_start = excluded.window_start,
                window_failures = excluded.window_failures
            """
    }

    /// Forgets `keys` in one statement.
    func resetThrottleStates(for keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await database.transaction { connection in
            try await connection.run(Prepared<Reset>(keys))
        }
    }

    enum Reset: PreparedText {
        static let sql = "DELETE FROM login_throttles WHERE key = ANY($1)"
    }

    /// The stored state of `key`, if any.
    static func fetch(_ connection: PostgresConnection, key: String) async throws -> ThrottleState? {
        try await connection.firstRow(Prepared<State>(key)).map { row in
            ThrottleState(
                failures: Int(try row.column("failures", as: Int32.self)),
                lastFailureAt: try row.column("last_failure_at"), windowStart: try row.column("window_start"),
                windowFailures: Int(try row.column("window_failures", as: Int32.self)))
        }
    }

    enum State: PreparedText {
        static let sql =
            "SELECT failures, last_failure_at, window_start, window_failures FROM login_throttles WHERE key = $1"
    }
}
