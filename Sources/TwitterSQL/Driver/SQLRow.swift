/// One row of an answer, its columns read by name.
public struct SQLRow: Sendable {
    /// The columns' names, in the answer's order.
    public let names: [String]
    /// The columns' values, in the same order.
    public let values: [SQLValue]

    /// A row of `values` under `names`.
    public init(names: [String], values: [SQLValue]) {
        self.names = names
        self.values = values
    }

    /// Column `name` read as `Value`.
    public func column<Value: SQLDecodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        guard let index = names.firstIndex(of: name) else {
            throw SQLDecodingError(Value.self, .text("no column \(name)"))
        }
        return try Value(sqlValue: values[index])
    }

    /// The first column read as `Value`.
    public func first<Value: SQLDecodable>(as type: Value.Type = Value.self) throws -> Value {
        try Value(sqlValue: values.first ?? .null)
    }
}
