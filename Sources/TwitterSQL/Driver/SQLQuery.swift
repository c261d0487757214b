/// One statement and its values, written once for both databases in PostgreSQL's spelling: `$1`, `$2`… for the
/// values, a cast only right after a placeholder (`$2::timestamptz`), an array's membership as `= ANY($n)`, and
/// otherwise what both accept (`ON CONFLICT … DO …`, `RETURNING`, `TRUE`/`FALSE`). SQLite's driver translates
/// the few spellings it lacks (`SQLiteText`); what no spelling covers is asked of the connection's `SQLDialect`.
///
/// Interpolating a value binds it: `"SELECT … WHERE id = \(id)"` sends `$1` and the id apart, never in the text.
public struct SQLQuery: Sendable, ExpressibleByStringInterpolation {
    /// The text, with `$n` where the values go.
    public private(set) var text: String
    /// The values, `$1` first.
    public private(set) var binds: [SQLValue]
    /// The named text this query uses, when it is one: PostgreSQL prepares it once a connection, SQLite keeps
    /// its compiled statement.
    public let named: (any SQLText.Type)?

    /// An empty query to build with `append` and `bind`.
    public init(_ text: String = "") {
        self.text = text
        binds = []
        named = nil
    }

    /// `text` with its values already bound, `$1` (or SQLite's `?`) first.
    public init(text: String, binds: [SQLValue]) {
        self.text = text
        self.binds = binds
        named = nil
    }

    /// A use of `Text`'s statement with `values`. (A parameter pack here cost the post committer a few thousand
    /// instructions a statement: its metadata was looked up by mangled name at every call.)
    public init(_ text: any SQLText.Type, _ values: any SQLBindable...) {
        self.text = text.sql
        binds = values.map { $0.sqlValue }
        named = text
    }

    /// A query of fixed text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A query whose interpolated values are bound, in their order.
    public init(stringInterpolation: StringInterpolation) {
        self.init(stringInterpolation.query.text)
        binds = stringInterpolation.query.binds
    }

    /// Appends `part` to the text as it is.
    public mutating func append(_ part: String) {
        text += part
    }

    /// Binds `value` and returns its placeholder.
    public mutating func bind(_ value: some SQLBindable) -> String {
        binds.append(value.sqlValue)
        return "$\(binds.count)"
    }

    /// The interpolations of a query literal: a value binds, `unescaped:` is text.
    public struct StringInterpolation: StringInterpolationProtocol {
        var query = SQLQuery()

        /// An empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Writes `literal` into the statement.
        public mutating func appendLiteral(_ literal: String) {
            query.append(literal)
        }

        /// Binds `value`.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            query.append(query.bind(value))
        }

        /// Binds `value`, NULL when nil. (Spelled apart so the compiler knows an optional is meant.)
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            query.append(query.bind(value))
        }

        /// Writes `text` into the statement: only the stores' own fragments, never a value.
        public mutating func appendInterpolation(unescaped text: String) {
            query.append(text)
        }
    }
}

/// A statement's fixed text, named by a type of its own so each database can keep it compiled.
public protocol SQLText: SendableMetatype {
    /// The statement, with `$1`, `$2`… for its values.
    static var sql: String { get }
}
