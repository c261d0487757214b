import EventLoopExecutor
import Foundation
import Logging
import PostgresNIO
import TwitterCore
import TwitterSQL

/// The few ways the stores talk to a connection: every row of a query, the first, one column's values, or no
/// rows at all. Queries are `PostgresQuery` interpolations, so every value is a bound parameter.
extension PostgresConnection {
    /// Logs nothing: the stores report their own failures, and query texts are not worth a log line each.
    static let quiet = Logger(label: "twitterd.postgres.query", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` on the connection's own event loop: a pooled connection's whole transaction runs there
    /// (`PostgresStore.withConnection`), so its statements follow one another without a thread hop between
    /// them, only the wait for the server's answer.
    func onItsLoop<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop), operation: body)
    }

    /// Runs `send`, which must send one statement before it first suspends, and then reads its answer, on the
    /// connection's own event loop, after checking there that the connection is still open. Every statement the
    /// stores send goes through here.
    ///
    /// Why on the loop: postgres-nio 1.33.2 hands a statement to its channel with no write promise. Sent from
    /// another thread, the write waits in the loop's queue; if the connection closes meanwhile, the closed
    /// channel's pipeline no longer holds postgres-nio's handler, the statement is dropped, and its caller waits
    /// for good. PostgresFaultTests caught exactly that: after a postmaster kill under 32 posters, an ordered
    /// write hung on such a query holding the daemon's write order, and no post was answered again. On the loop,
    /// the check and the write happen in one turn (`query` and `execute` write before they first suspend), so a
    /// statement either reaches the handler, which fails it if the connection breaks, or is refused here as a
    /// lost connection. Already on the loop (inside `onItsLoop`), it goes straight on.
    private func onLoop<Result>(_ send: () async throws -> Result) async throws -> Result {
        guard eventLoop.inEventLoop else { return try await onItsLoop { try await onLoop(send) } }
        guard !isClosed else {
            throw TwitterError.unavailable(retryAfter: Unreachable.retryAfter, "The database connection closed")
        }
        return try await send()
    }

    /// Sends `query` and hands its rows to `read`, on the connection's loop (`onLoop`).
    private func answers<Result>(
        _ query: PostgresQuery, _ read: (PostgresRowSequence) async throws -> Result
    ) async throws -> Result {
        try await onLoop { try await read(try await self.query(query, logger: Self.quiet)) }
    }

    /// The rows of a named prepared statement, prepared on this connection the first time it runs here.
    func rows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await onLoop {
            var rows: [Statement.Row] = []
            for try await row in try await execute(statement, logger: Self.quiet) { rows.append(row) }
            return rows
        }
    }

    /// Every row `query` returns, each addressable by column name.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await plainRows(query).map(PostgresRandomAccessRow.init)
    }

    /// Every row `query` returns, as postgres-nio gives them.
    func plainRows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await answers(query) { sequence in
            var rows: [PostgresRow] = []
            for try await row in sequence { rows.append(row) }
            return rows
        }
    }

    /// The first row `query` returns, if any.
    func firstRow(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await rows(query).first
    }

    /// The first column of every row `query` returns.
    func values<Value: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: Value.Type) async throws
        -> [Value]
    {
        try await answers(query) { sequence in
            var values: [Value] = []
            for try await (value) in sequence.decode(Value.self) { values.append(value) }
            return values
        }
    }

    /// The first column of the first row `query` returns; nil when there is no row or it is NULL.
    func value<Value: PostgresDecodable>(_ query: PostgresQuery, as type: Value.Type) async throws -> Value?
    where Value._DecodableType == Value {
        guard let row = try await firstRow(query) else { return nil }
        return try row[0].decode(Value?.self)
    }

    /// Runs `query` for its effect, reading and dropping any rows.
    func run(_ query: PostgresQuery) async throws {
        try await answers(query) { sequence in for try await _ in sequence {} }
    }

    /// Runs a script of several statements, one after another: each statement ends with `;` at the end of a
    /// line (postgres-nio prepares every query, and a prepared statement holds one command). Migrations only.
    func runScript(_ script: String) async throws {
        var statement = ""
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("--") else { continue }
            statement += line + "\n"
            if trimmed.hasSuffix(";") {
                try await run(PostgresQuery(unsafeSQL: statement))
                statement = ""
            }
        }
        if !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            try await run(PostgresQuery(unsafeSQL: statement))
        }
    }

    /// Runs `body` between BEGIN and COMMIT, rolling back when it throws. Unlike postgres-nio's
    /// `withTransaction`, the body's own error is rethrown as it is, so a `TwitterError` reaches the caller.
    func inTransaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await PostgresSQLConnection(connection: self).run(SQLQuery(Transaction.Begin.self))
        let result: Result
        do {
            result = try await body(self)
        } catch {
            try? await PostgresSQLConnection(connection: self).run(SQLQuery(Transaction.Rollback.self))
            throw error
        }
        try await PostgresSQLConnection(connection: self).run(SQLQuery(Transaction.Commit.self))
        return result
    }
}

/// A transaction's own statements, prepared like the others (every write sends two of them); PostgreSQL takes
/// a named `ROLLBACK` in a failed transaction, as it takes an unnamed one.
enum Transaction {
    enum Begin: SQLText { static let sql: SQLQuery = "BEGIN" }
    enum Commit: SQLText { static let sql: SQLQuery = "COMMIT" }
    enum Rollback: SQLText { static let sql: SQLQuery = "ROLLBACK" }
}

extension PostgresRandomAccessRow {
    /// Column `name` decoded as `Value`.
    func column<Value: PostgresDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        try self[name].decode(Value.self)
    }
}
