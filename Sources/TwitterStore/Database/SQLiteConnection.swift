import Foundation
import GRDB
import Synchronization
import TwitterSQL

/// The stores' `SQLConnection` over one GRDB connection, used only inside the GRDB closure that lent it, on
/// that closure's thread (`CallingThreadExecutor` keeps the body there).
struct SQLiteConnection: SQLConnection, @unchecked Sendable {
    // @unchecked: GRDB's `Database` is not Sendable; this value never leaves the thread of the closure that
    // made it, because the body it is handed to runs on that thread to its end before the closure returns.
    let db: Database
    /// The last date bound, formatted: a batch binds one `now` to every row, and Foundation's date formatting
    /// had been a third of the post committer's time.
    private let lastDate = FormattedDate()

    var dialect: SQLDialect { .sqlite }

    /// Named texts are compiled once a connection (GRDB's statement cache), others each time.
    func rows(_ query: SQLQuery) throws -> [SQLRow] {
        let statement =
            if let named = query.named {
                try db.cachedStatement(sql: Self.translated(named))
            } else {
                try db.makeStatement(sql: SQLiteText.translate(query.text))
            }
        // GRDB's generic `StatementArguments(_:)` maps with a key path built at run time at every call (about 7,000
        // instructions, twice a post in the committer, by callgrind); its existential form maps with a closure.
        let values = query.binds.map { databaseValue($0) as (any DatabaseValueConvertible)? }
        statement.setUncheckedArguments(StatementArguments(values))
        let columns = SQLColumns(statement.columnNames)
        var rows: [SQLRow] = []
        let cursor = try Row.fetchCursor(statement)
        while let row = try cursor.next() {
            rows.append(SQLRow(columns: columns, values: row.databaseValues.map { $0.sqlValue }))
        }
        return rows
    }

    /// `value` as GRDB binds it, a date formatted once while it repeats.
    private func databaseValue(_ value: SQLValue) -> DatabaseValue {
        guard case .date(let date) = value else { return value.databaseValue }
        return lastDate.formatted(date)
    }

    /// Each named text translated once for the process.
    private static let translations = Mutex<[ObjectIdentifier: String]>([:])

    private static func translated(_ text: any SQLText.Type) -> String {
        let key = ObjectIdentifier(text)
        if let known = translations.withLock({ $0[key] }) { return known }
        let translation = SQLiteText.translate(text.sql)
        translations.withLock { $0[key] = translation }
        return translation
    }

    /// A body run on this connection, on the calling thread.
    static func run<Result: Sendable>(
        _ db: Database, _ body: @escaping @Sendable (any SQLConnection) async throws -> Result
    ) throws -> Result {
        let connection = SQLiteConnection(db: db)
        return try CallingThreadExecutor.run { try await body(connection) }
    }
}

/// PostgreSQL's spelling of a statement (`SQLQuery`) in SQLite's, rewritten token by token:
/// - `$n` becomes `?n`, and a cast right after it (`$2::timestamptz`) is dropped: SQLite keeps any value in any
///   column;
/// - `= ANY($n)` becomes `IN (SELECT value FROM json_each(?n))`, the array bound as JSON text;
/// - `greatest(`, `least(` and `string_agg(` become SQLite's `max(`, `min(` and `group_concat(`;
/// - `FOR UPDATE` (with `OF table`) is dropped: SQLite's one writer already excludes every other.
/// String literals are copied as they are.
enum SQLiteText {
    static func translate(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        var rest = Substring(text)
        while let character = rest.first {
            if character == "'" {
                // A literal, to its closing quote ('' inside is two literals back to back).
                let body = rest.dropFirst().prefix { $0 != "'" }
                output += "'" + body
                rest = rest.dropFirst(1 + body.count)
                if rest.first == "'" {
                    output += "'"
                    rest = rest.dropFirst()
                }
            } else if character == "$", let number = placeholder(&rest) {
                output += "?" + number
            } else if character == "=", let any = anyOf(&rest) {
                output += any
            } else if character.isLetter || character == "_" {
                let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                rest = rest.dropFirst(word.count)
                switch word.lowercased() {
                case "greatest": output += "max"
                case "least": output += "min"
                case "string_agg": output += "group_concat"
                case "for" where forUpdate(&rest): output.removeLast(output.last == " " ? 1 : 0)
                default: output += word
                }
            } else {
                output.append(character)
                rest = rest.dropFirst()
            }
        }
        return output
    }

    /// At `$`: the placeholder's number, past any cast after it; nil when no digits follow.
    private static func placeholder(_ rest: inout Substring) -> Substring? {
        let digits = rest.dropFirst().prefix(while: \.isNumber)
        guard !digits.isEmpty else { return nil }
        rest = rest.dropFirst(1 + digits.count)
        if rest.hasPrefix("::") {
            rest = rest.dropFirst(2).drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "[" || $0 == "]" }
        }
        return digits
    }

    /// At `=`: `= ANY($n)` as SQLite's membership in the JSON array bound to `?n`; nil for any other `=`.
    private static func anyOf(_ rest: inout Substring) -> String? {
        var probe = rest.dropFirst().drop(while: \.isWhitespace)
        guard probe.prefix(4).uppercased() == "ANY(" else { return nil }
        probe = probe.dropFirst(4)
        guard probe.first == "$", let number = placeholder(&probe), probe.first == ")" else { return nil }
        rest = probe.dropFirst()
        return "IN (SELECT value FROM json_each(?\(number)))"
    }

    /// After `for`: whether it begins `FOR UPDATE [OF table]`, which is then consumed.
    private static func forUpdate(_ rest: inout Substring) -> Bool {
        var probe = rest.drop(while: \.isWhitespace)
        guard probe.prefix(6).uppercased() == "UPDATE" else { return false }
        probe = probe.dropFirst(6)
        let afterUpdate = probe
        probe = probe.drop(while: \.isWhitespace)
        if probe.prefix(3).uppercased() == "OF " {
            probe = probe.dropFirst(3).drop(while: \.isWhitespace).drop { $0.isLetter || $0.isNumber || $0 == "_" }
            rest = probe
        } else {
            rest = afterUpdate
        }
        return true
    }
}

extension SQLValue {
    /// The value as GRDB binds it: a Bool as 0 or 1, a Date as GRDB's UTC text, as every GRDB record writes them.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        case .bool(let value): value.databaseValue
        case .date(let value): value.databaseValue
        case .integers(let values): "[\(values.map(String.init).joined(separator: ","))]".databaseValue
        case .texts(let values): Self.json(values).databaseValue
        }
    }

    /// Texts as a JSON array, for `json_each`.
    private static func json(_ values: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: values)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension DatabaseValue {
    /// The stored value as the stores read it; a date is text until a store reads it as a `Date`.
    var sqlValue: SQLValue {
        switch storage {
        case .null: .null
        case .int64(let value): .integer(value)
        case .double(let value): .real(value)
        case .string(let value): .text(value)
        case .blob(let value): .blob(value)
        }
    }
}

/// A date and its GRDB text, kept while the same date is bound again.
private final class FormattedDate: @unchecked Sendable {
    // @unchecked: one `SQLiteConnection` owns it, and that value stays on its closure's thread.
    private var last: (date: Date, value: DatabaseValue)?

    func formatted(_ date: Date) -> DatabaseValue {
        if let last, last.date == date { return last.value }
        let value = date.databaseValue
        last = (date, value)
        return value
    }
}
