import Foundation
import PostgresNIO
import TwitterCore
import TwitterSQL

/// The events kept in a log table, each naming its table, so that the read of a page of its log can be a named
/// prepared statement, whose text is fixed per type.
protocol LoggedEvent: Codable, Sendable {
    /// The log table its entries are in.
    static var logTable: String { get }
    /// An entry's events as the JSON the log keeps, which `JSONDecoder` reads back.
    static func logJSON(_ events: [Self]) throws -> String
}

extension LoggedEvent {
    static func logJSON(_ events: [Self]) throws -> String {
        String(decoding: try JSONEncoder().encode(events), as: UTF8.self)
    }
}

extension CommitEvent: LoggedEvent {
    static var logTable: String { "commit_events" }

    /// The posts of a group commit written by hand (`CommitLogJSON`).
    static func logJSON(_ events: [CommitEvent]) throws -> String { try CommitLogJSON.encode(events) }
}

/// Up to 500 entries of `Event`'s log after one id and before another, in id order, as a named prepared
/// statement: the commit log is read before every logged-in request on a database daemons may share (the
/// catch-up), the statement a home page most often costs, so each pooled connection parses and plans it once.
struct EventLogPage<Event: LoggedEvent>: PostgresPreparedStatement {
    static var sql: String {
        "SELECT id, origin, events FROM \(Event.logTable) WHERE id > $1 AND id < $2 ORDER BY id LIMIT 500"
    }
    /// An entry's id, its daemon, and its events as JSON.
    typealias Row = (id: Int64, origin: String, events: String)

    let after: Int64
    let before: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(after)
        bindings.append(before)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (id, origin, events) = try row.decode((Int64, String, String).self)
        return (id, origin, events)
    }
}

/// The append of one entry to `Event`'s log with the notification of its channel, in one statement (see
/// `EventLog.append`), prepared: every ordered write that reports events sends it.
enum EventLogAppend<Event: LoggedEvent>: SQLText {
    static var sql: SQLQuery {
        """
        WITH entry AS (
            INSERT INTO \(unescaped: Event.logTable) (origin, events) VALUES ($1, $2) RETURNING id
        )
        SELECT id FROM entry, pg_notify($3, id::text)
        """
    }
}
