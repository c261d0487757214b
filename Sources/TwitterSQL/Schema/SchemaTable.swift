/// A table as both databases' migrations create it: its columns in portable types (`SQLType`), each dialect
/// naming the type its database declares. The description is written once; `SchemaChange.statements(for:)`
/// renders it as each database's DDL.
public struct SchemaTable: Sendable {
    /// The table's name.
    public let name: String
    /// Its integer key whose values the database assigns, in ascending order, never reused; nil when the table
    /// is keyed otherwise (`primaryKey`).
    public let generatedKey: String?
    /// Its columns, in order, after the generated key.
    public let columns: [SchemaColumn]
    /// The columns of its primary key when it has no generated one.
    public let primaryKey: [String]
    /// Sets of columns no two rows may share.
    public let uniques: [[String]]

    /// A table named `name` with `columns`, keyed by `generatedKey` or else by `primaryKey`.
    public init(
        _ name: String, generatedKey: String? = "id", _ columns: [SchemaColumn], primaryKey: [String] = [],
        uniques: [[String]] = []
    ) {
        self.name = name
        self.generatedKey = generatedKey
        self.columns = columns
        self.primaryKey = primaryKey
        self.uniques = uniques
    }
}

/// A column: its portable type, whether it may be NULL, its default and the row it points at.
public struct SchemaColumn: Sendable {
    /// The column's name.
    public let name: String
    /// Its type, in the stores' terms.
    public let type: SQLType
    /// Whether it may hold NULL.
    public let isNullable: Bool
    /// The value a row gets when an insert names no other.
    public let defaultValue: SchemaDefault?
    /// The table whose `id` it holds, deleting its row with that one (`ON DELETE CASCADE`) or emptying it
    /// (`ON DELETE SET NULL`, for a nullable column).
    public let references: String?

    /// A column `name` of `type`, NOT NULL unless `nullable`.
    public init(
        _ name: String, _ type: SQLType, nullable: Bool = false, default defaultValue: SchemaDefault? = nil,
        references: String? = nil
    ) {
        self.name = name
        self.type = type
        isNullable = nullable
        self.defaultValue = defaultValue
        self.references = references
    }
}

/// A column's default, as a literal both databases read alike.
public enum SchemaDefault: Sendable {
    /// An integer.
    case integer(Int64)
    /// A text, quoted.
    case text(String)
    /// TRUE or FALSE.
    case boolean(Bool)

    /// The literal.
    var literal: String {
        switch self {
        case .integer(let value): String(value)
        case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .boolean(let value): value ? "TRUE" : "FALSE"
        }
    }
}

/// An index on a table's columns, unique or not, over the rows `condition` selects when given (a partial index,
/// written in the spelling both databases share).
public struct SchemaIndex: Sendable {
    /// The index's name.
    public let name: String
    /// Its table.
    public let table: String
    /// Its columns, in order.
    public let columns: [String]
    /// Whether no two rows may share its columns.
    public let isUnique: Bool
    /// The rows it holds, when not every one.
    public let condition: String?

    /// An index `name` on `table`'s `columns`.
    public init(
        _ name: String, on table: String, _ columns: [String], unique: Bool = false, where condition: String? = nil
    ) {
        self.name = name
        self.table = table
        self.columns = columns
        isUnique = unique
        self.condition = condition
    }
}
