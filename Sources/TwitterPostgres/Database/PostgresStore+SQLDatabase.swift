import PostgresNIO
import TwitterCore
import TwitterSQL

/// The stores written once run on PostgreSQL through the store's own three ways in (`PostgresStore`).
struct PostgresSQLDatabase: SQLDatabase {
    let store: PostgresStore

    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await store.read { connection in try await body(PostgresSQLConnection(connection: connection)) }
    }

    /// A read-only transaction at REPEATABLE READ: every statement sees the snapshot the first one took.
    func snapshot<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await store.transaction { connection in
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try await body(PostgresSQLConnection(connection: connection))
        }
    }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await store.transaction { connection in try await body(PostgresSQLConnection(connection: connection)) }
    }

    func orderedWrite<Result: Sendable>(
        reportingTo observer: any CommitObserving,
        _ body: @escaping @Sendable (any SQLConnection) async throws -> (Result, [CommitEvent])
    ) async throws -> Result {
        try await store.orderedWrite(reportingTo: observer) { connection in
            try await body(PostgresSQLConnection(connection: connection))
        }
    }

    /// PostgreSQL names the index: "users_email_key_key".
    func uniqueViolation(in error: any Error) -> String? {
        guard let error = error as? PSQLError, error.serverInfo?[.sqlState] == "23505" else { return nil }
        return error.serverInfo?[.constraintName] ?? ""
    }
}
