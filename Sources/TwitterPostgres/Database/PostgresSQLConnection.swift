import Foundation
import PostgresNIO
import Synchronization
import TwitterCore
import TwitterSQL

/// The stores' `SQLConnection` over one pooled postgres-nio connection: named texts become named prepared
/// statements, prepared on a connection the first time they run there; other queries go unnamed.
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    var dialect: any SQLDialect { PostgresDialect() }

    func rows(_ query: SQLQuery) async throws -> [SQLRow] {
        let rows: [PostgresRow]
        if let named = query.named {
            var bindings = PostgresBindings(capacity: query.binds.count)
            for value in query.binds { value.bind(into: &bindings) }
            rows = try await prepared(named, bindings)
        } else {
            let (text, binds) = query.serialized(for: PostgresDialect())
            var bindings = PostgresBindings(capacity: binds.count)
            for value in binds { value.bind(into: &bindings) }
            rows = try await connection.plainRows(PostgresQuery(unsafeSQL: text, binds: bindings))
        }
        guard let first = rows.first else { return [] }
        let columns = SQLColumns(first.map(\.columnName))
        return try rows.map { row in SQLRow(columns: columns, values: try row.map(SQLValue.init)) }
    }

    private func prepared<Text: SQLText>(_ text: Text.Type, _ bindings: PostgresBindings) async throws
        -> [PostgresRow]
    {
        try await connection.rows(NamedStatement<Text>(bindings: bindings))
    }
}

/// Each named text's statement name, made once: postgres-nio asks for it at every execution.
private let statementNames = Mutex<[ObjectIdentifier: String]>([:])

/// Each named text in PostgreSQL's spelling, serialised once for the process.
private let statementTexts = Mutex<[ObjectIdentifier: String]>([:])

/// A `SQLText` as postgres-nio's prepared statement, its values bound already.
struct NamedStatement<Text: SQLText>: PostgresPreparedStatement {
    static var sql: String {
        let key = ObjectIdentifier(Text.self)
        if let known = statementTexts.withLock({ $0[key] }) { return known }
        let text = Text.sql.serialized(for: PostgresDialect()).text
        statementTexts.withLock { $0[key] = text }
        return text
    }

    /// The text's type, readable where it fits (`statementName(of:)`).
    static var name: String { statementName(of: Text.self) }

    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// A type's name as a statement's, made once: PostgreSQL keeps the first 63 bytes of a statement's name, so a
/// longer one (a private type's, a generic's) keeps a prefix and a hash of the whole, which tells two such apart
/// (two counters' `Adjust<…>` were one statement before).
func statementName(of type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let known = statementNames.withLock({ $0[key] }) { return known }
    let full = String(reflecting: type)
    var name = full.replacingOccurrences(of: "TwitterSQL.", with: "")
        .replacingOccurrences(of: "TwitterPostgres.", with: "")
        .replacingOccurrences(of: #"\(unknown context at \$[0-9a-f]+\)\."#, with: "", options: .regularExpression)
    if name.utf8.count > 63 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in full.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        name = String(decoding: name.utf8.prefix(46), as: UTF8.self) + "#" + String(hash, radix: 16)
    }
    statementNames.withLock { $0[key] = name }
    return name
}

extension SQLValue {
    /// Binds the value; NULL without a type, which the server infers from where it stands (the stores cast a
    /// nullable placeholder the server cannot place).
    func bind(into bindings: inout PostgresBindings) {
        switch self {
        case .null: bindings.appendNull()
        case .integer(let value): bindings.append(value)
        case .real(let value): bindings.append(value)
        case .text(let value): bindings.append(value)
        case .blob(let value): bindings.append(ByteBuffer(bytes: value))
        case .bool(let value): bindings.append(value)
        case .date(let value): bindings.append(value)
        case .integers(let values): bindings.append(values)
        case .texts(let values): bindings.append(values)
        }
    }
}

extension SQLValue {
    /// A cell's value by its type; a type the stores do not read is a store bug, named in the error.
    init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .bool: self = .bool(try cell.decode(Bool.self))
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .numeric:
            // A sum of bigints; whole, it reads as an integer.
            let number = NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue
            self = Int64(exactly: number).map { .integer($0) } ?? .real(number)
        case .timestamptz, .timestamp: self = .date(try cell.decode(Date.self))
        case .bytea: self = .blob(Data(buffer: try cell.decode(ByteBuffer.self)))
        default: self = .text(try cell.decode(String.self))
        }
    }
}
