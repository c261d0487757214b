import Foundation
import PostgresNIO

/// The fixed text of a statement the stores send often, named by a type of its own so that it can be a named
/// prepared statement (`Prepared`): each pooled connection parses and plans it once, and every later use sends
/// only its values. Each value's type is fixed by its first use on a connection, so a placeholder whose value
/// may be NULL, or whose column differs from the value's type (an `integer` counter moved by a `bigint`), is
/// cast in the text.
protocol PreparedText {
    /// The statement, with `$1`, `$2`… for its values.
    static var sql: String { get }
}

/// A use of `Text`'s statement with its values, as postgres-nio's `PostgresPreparedStatement`: prepared on a
/// connection the first time it runs there. Its rows stay `PostgresRow`s, read by column name as every
/// unnamed statement's are.
struct Prepared<Text: PreparedText>: PostgresPreparedStatement {
    static var sql: String { Text.sql }

    /// The text's type without the module's name: PostgreSQL keeps the first 63 bytes of a statement's name,
    /// and two names alike in those would be one statement.
    static var name: String {
        String(reflecting: Text.self).replacingOccurrences(of: "TwitterPostgres.", with: "")
    }

    typealias Row = PostgresRow

    let bindings: PostgresBindings

    init<each Value: StatementValue>(_ value: repeat each Value) throws {
        var bindings = PostgresBindings()
        repeat try (each value).bind(into: &bindings)
        self.bindings = bindings
    }

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// A value a `Prepared` statement binds: postgres-nio's encodable values, and their optionals as NULL.
protocol StatementValue {
    func bind(into bindings: inout PostgresBindings) throws
}

extension StatementValue where Self: PostgresThrowingDynamicTypeEncodable {
    func bind(into bindings: inout PostgresBindings) throws { try bindings.append(self) }
}

extension Int64: StatementValue {}
extension Int: StatementValue {}
extension Int32: StatementValue {}
extension String: StatementValue {}
extension Bool: StatementValue {}
extension Date: StatementValue {}
extension Data: StatementValue {}
extension Array: StatementValue where Element: PostgresArrayEncodable {}

extension Optional: StatementValue where Wrapped: StatementValue & PostgresThrowingDynamicTypeEncodable {
    func bind(into bindings: inout PostgresBindings) throws { try bindings.append(self) }
}

extension PostgresConnection {
    /// Every row of `statement`, each addressable by column name.
    func rows<Text>(_ statement: Prepared<Text>) async throws -> [PostgresRandomAccessRow] {
        try await plainRows(statement).map(PostgresRandomAccessRow.init)
    }

    /// The rows as postgres-nio gives them, through the prepared statements' one way (`rows(_:)` of
    /// PostgresConnection+Rows), which the return type picks.
    private func plainRows<Text>(_ statement: Prepared<Text>) async throws -> [PostgresRow] {
        let plain: [PostgresRow] = try await self.rows(statement)
        return plain
    }

    /// The first row of `statement`, if any.
    func firstRow<Text>(_ statement: Prepared<Text>) async throws -> PostgresRandomAccessRow? {
        try await rows(statement).first
    }

    /// The first column of every row of `statement`.
    func values<Text, Value: PostgresDecodable>(_ statement: Prepared<Text>, as type: Value.Type) async throws
        -> [Value]
    {
        try await plainRows(statement).map { try $0.decode(Value.self) }
    }

    /// The first column of the first row of `statement`; nil when there is no row or it is NULL.
    func value<Text, Value: PostgresDecodable>(_ statement: Prepared<Text>, as type: Value.Type) async throws -> Value?
    where Value._DecodableType == Value {
        try await plainRows(statement).first.map { try $0.decode(Value?.self) } ?? nil
    }

    /// Runs `statement` for its effect, dropping any rows.
    func run<Text>(_ statement: Prepared<Text>) async throws {
        _ = try await plainRows(statement)
    }
}
