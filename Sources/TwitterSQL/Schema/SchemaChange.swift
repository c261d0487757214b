/// One change of the schema, described once for both databases; each dialect renders it (`statements(for:)`).
public enum SchemaChange: Sendable {
    /// A new table.
    case createTable(SchemaTable)
    /// A new column of an existing table (nullable, or with a default, for the rows already there).
    case addColumn(table: String, SchemaColumn)
    /// A new index.
    case createIndex(SchemaIndex)
    /// An index dropped.
    case dropIndex(String)
    /// A table dropped, with its rows.
    case dropTable(String)
    /// A statement both databases read alike: a change of the rows (`UPDATE …`) rather than of the schema.
    case statement(String)

    /// The change as `dialect`'s DDL, one statement an element.
    public func statements(for dialect: any SQLDialect) -> [String] {
        switch self {
        case .createTable(let table):
            var parts: [String] = []
            if let key = table.generatedKey { parts.append(key + " " + dialect.generatedKey) }
            parts += table.columns.map { Self.definition(of: $0, dialect) }
            if !table.primaryKey.isEmpty {
                parts.append("PRIMARY KEY (" + table.primaryKey.joined(separator: ", ") + ")")
            }
            parts += table.uniques.map { "UNIQUE (" + $0.joined(separator: ", ") + ")" }
            return ["CREATE TABLE " + table.name + " (\n    " + parts.joined(separator: ",\n    ") + "\n)"]
        case .addColumn(let table, let column):
            return ["ALTER TABLE " + table + " ADD COLUMN " + Self.definition(of: column, dialect)]
        case .createIndex(let index):
            var text = "CREATE " + (index.isUnique ? "UNIQUE " : "") + "INDEX " + index.name + " ON " + index.table
            text += " (" + index.columns.joined(separator: ", ") + ")"
            if let condition = index.condition { text += " WHERE " + condition }
            return [text]
        case .dropIndex(let name):
            return ["DROP INDEX " + name]
        case .dropTable(let name):
            return ["DROP TABLE " + name]
        case .statement(let text):
            return [text]
        }
    }

    /// A column's definition: name, the dialect's type, NOT NULL, default and reference.
    private static func definition(of column: SchemaColumn, _ dialect: any SQLDialect) -> String {
        var text = column.name + " " + dialect.columnType(column.type)
        if !column.isNullable { text += " NOT NULL" }
        if let value = column.defaultValue { text += " DEFAULT " + value.literal }
        if let table = column.references {
            text += " REFERENCES " + table + " (id) ON DELETE " + (column.isNullable ? "SET NULL" : "CASCADE")
        }
        return text
    }
}
