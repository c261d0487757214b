/// The columns of an answer: their names, and where each stands, shared by its rows.
public final class SQLColumns: Sendable {
    /// The names, in the answer's order.
    public let names: [String]
    /// Where each name stands, for a wide answer (a tweet's two dozen columns); a narrow one is searched, which
    /// costs less than hashing every name of every answer (the post committer's statements return one or two).
    private let positions: [String: Int]?

    /// The columns named `names`; of two alike, the first is found.
    public init(_ names: [String]) {
        self.names = names
        positions =
            names.count > 8
            ? Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    /// Where column `name` stands.
    func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        return names.firstIndex(of: name)
    }
}

// @MemberwiseInit
/// One row of an answer, its columns read by name.
public struct SQLRow: Sendable {
    /// The answer's columns.
    public let columns: SQLColumns
    /// The columns' values, in the answer's order.
    public let values: [SQLValue]

    /// Column `name` read as `Value`.
    public func column<Value: SQLDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        guard let index = columns.position(of: name) else {
            throw SQLDecodingError(Value.self, .text("no column \(name)"))
        }
        return try Value(sqlValue: values[index])
    }

    /// The first column read as `Value`.
    public func first<Value: SQLDecodable>(as type: Value.Type = Value.self) throws -> Value {
        try Value(sqlValue: values.first ?? .null)
    }
}
