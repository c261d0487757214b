/// Rows of one table inserted together, column by column: what the stores hand a driver to write at its fastest
/// (`SQLConnection.insert`). SQLite runs one compiled statement a row, in process; PostgreSQL sends one statement
/// for the batch, each column an array unnested beside the others, since a round trip a row had been the cost.
public struct SQLRowBatch: Sendable {
    /// The table.
    public let table: String
    /// The columns and their values, each with one value a row (or one for every row).
    public let columns: [SQLBatchColumn]
    /// How many rows.
    public let count: Int
    /// Whether a row that would break a unique index is skipped (`ON CONFLICT DO NOTHING`) rather than failing
    /// the batch.
    public let skipsConflicts: Bool
    /// Whether the new rows' `id`s come back (the table has an `id` key and no conflict is skipped).
    public let returnsIDs: Bool
    /// The name of the batches of this shape (table, columns and their kinds, flags), so that a database keeps
    /// their statement prepared (PostgreSQL) as it keeps a named text's; nil for a batch of its own.
    public let named: (any SQLBatchNaming.Type)?

    /// `count` rows of `table`, whose values `columns` holds; their new ids when `returningIDs`.
    public init(
        into table: String, count: Int, skippingConflicts: Bool = false, returningIDs: Bool = false,
        named: (any SQLBatchNaming.Type)? = nil, _ columns: [SQLBatchColumn]
    ) {
        self.named = named
        self.table = table
        self.count = count
        self.columns = columns
        skipsConflicts = skippingConflicts
        returnsIDs = returningIDs && !skippingConflicts
    }
}

/// A name for the batches of one shape, a type of its own as a named text's (`SQLText`): every batch under it
/// must have the same table, columns, kinds of values and flags, only its values and their count vary.
public protocol SQLBatchNaming: SendableMetatype {}

/// A column of a batch and its values.
public struct SQLBatchColumn: Sendable {
    /// The column's name.
    public let name: String
    /// Its values, one a row.
    public let values: SQLBatchValues

    /// Column `name` with `values`.
    public init(_ name: String, _ values: SQLBatchValues) {
        self.name = name
        self.values = values
    }
}

/// A column's values in a batch, in the few kinds the stores insert in bulk.
public enum SQLBatchValues: Sendable {
    /// Integers, one a row.
    case integers([Int64])
    /// Texts, one a row.
    case texts([String])
    /// Integers or NULL, one a row.
    case optionalIntegers([Int64?])
    /// Texts or NULL, one a row.
    case optionalTexts([String?])
    /// One value for every row (the batch's time).
    case same(SQLValue)

    /// Row `index`'s value.
    public func value(at index: Int) -> SQLValue {
        switch self {
        case .integers(let values): .integer(values[index])
        case .texts(let values): .text(values[index])
        case .optionalIntegers(let values): values[index].map { .integer($0) } ?? .null
        case .optionalTexts(let values): values[index].map { .text($0) } ?? .null
        case .same(let value): value
        }
    }
}
