/// One statement and its values, written once for both databases and spelt by each database's `SQLDialect` when
/// it is serialised: a placeholder, a cast, an array's membership, a row lock or a function whose name differs is
/// a fragment of its own, never a spelling to be found again in the text. What both databases write alike
/// (`ON CONFLICT … DO …`, `RETURNING`, `TRUE`/`FALSE`) is plain text.
///
/// Interpolating a value binds it: `"SELECT … WHERE id = \(id)"` keeps the id apart from the text, and the dialect
/// writes its placeholder (`$1` on PostgreSQL, `?1` on SQLite). A named text (`SQLText`) numbers its values
/// instead, `\(param: 1)`, and is serialised once per database, not at each use.
public struct SQLQuery: Sendable, ExpressibleByStringInterpolation {
    /// The statement's pieces, in order.
    var fragments: [SQLFragment]
    /// The values given apart from the text (a named text's, or a raw text's), `$1` first; values interpolated
    /// into the fragments follow them.
    public private(set) var binds: [SQLValue]
    /// The named text this query uses, when it is one: PostgreSQL prepares it once a connection, SQLite keeps
    /// its compiled statement.
    public let named: (any SQLText.Type)?

    /// A query of fixed text, to build on with `append`.
    public init(_ text: String = "") {
        fragments = text.isEmpty ? [] : [.text(text)]
        binds = []
        named = nil
    }

    /// `text` already in the spelling of the database it runs on, with its values bound: only for a driver's own
    /// statements, never for the stores written once.
    public init(raw text: String, binds: [SQLValue]) {
        fragments = [.text(text)]
        self.binds = binds
        named = nil
    }

    /// A use of `Text`'s statement with `values`. (A parameter pack here cost the post committer a few thousand
    /// instructions a statement: its metadata was looked up by mangled name at every call.)
    public init(_ text: any SQLText.Type, _ values: any SQLBindable...) {
        fragments = []
        binds = values.map { $0.sqlValue }
        named = text
    }

    /// A query of fixed text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A query whose interpolated values are bound, in their order.
    public init(stringInterpolation: StringInterpolation) {
        fragments = stringInterpolation.fragments
        binds = []
        named = nil
    }

    /// Appends `part` to the text as it is: only the stores' own fragments, never a value.
    public mutating func append(unescaped part: String) {
        fragments.append(.text(part))
    }

    /// Appends `query`'s fragments, its values with them.
    public mutating func append(_ query: SQLQuery) {
        fragments += query.fragments
    }

    /// The text in `dialect`'s spelling and every value it binds, in placeholder order.
    public func serialized(for dialect: any SQLDialect) -> (text: String, binds: [SQLValue]) {
        var text = ""
        var binds = self.binds
        for fragment in fragments {
            switch fragment {
            case .text(let part):
                text += part
            case .value(let value, let type):
                binds.append(value)
                text += dialect.placeholder(binds.count)
                if let type { text += dialect.cast(type) }
            case .parameter(let index, let type):
                text += dialect.placeholder(index)
                if let type { text += dialect.cast(type) }
            case .membership(let value):
                binds.append(value)
                text += dialect.membership(in: dialect.placeholder(binds.count))
            case .parameterMembership(let index):
                text += dialect.membership(in: dialect.placeholder(index))
            case .function(let function):
                text += dialect.name(of: function)
            case .lock(let lock):
                text += dialect.clause(lock)
            case .unindexed(let column):
                text += dialect.unindexed(column)
            }
        }
        return (text, binds)
    }

    /// The interpolations of a query literal: a value binds, `unescaped:` is text, the rest are what each
    /// database spells its own way.
    public struct StringInterpolation: StringInterpolationProtocol {
        var fragments: [SQLFragment] = []

        /// An empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {
            fragments.reserveCapacity(interpolationCount * 2 + 1)
        }

        /// Writes `literal` into the statement.
        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            fragments.append(.text(literal))
        }

        /// Binds `value`.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            fragments.append(.value(value.sqlValue, nil))
        }

        /// Binds `value`, NULL when nil. (Spelled apart so the compiler knows an optional is meant.)
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            fragments.append(.value(value.sqlValue, nil))
        }

        /// Binds `value` typed as `type`, for a NULL or a value whose type the server cannot place.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?, as type: SQLType) {
            fragments.append(.value(value.sqlValue, type))
        }

        /// Tests membership in `values`, as `= ANY($n)` reads on PostgreSQL: `x \(isIn: ids)`.
        public mutating func appendInterpolation<Element: SQLArrayElement>(isIn values: [Element]) {
            fragments.append(.membership(Element.arrayValue(values)))
        }

        /// A named text's value number `index` (1 first).
        public mutating func appendInterpolation(param index: Int) {
            fragments.append(.parameter(index, nil))
        }

        /// A named text's value number `index`, typed as `type`.
        public mutating func appendInterpolation(param index: Int, as type: SQLType) {
            fragments.append(.parameter(index, type))
        }

        /// Tests membership in a named text's array value number `index`: `x \(isInParam: 1)`.
        public mutating func appendInterpolation(isInParam index: Int) {
            fragments.append(.parameterMembership(index))
        }

        /// The name this database gives `function`.
        public mutating func appendInterpolation(function: SQLFunction) {
            fragments.append(.function(function))
        }

        /// `lock`, or nothing where the database needs none; written with its leading space.
        public mutating func appendInterpolation(lock: SQLRowLock) {
            fragments.append(.lock(lock))
        }

        /// `column` as an expression the planner cannot serve from an index on it (`SQLDialect.unindexed`).
        public mutating func appendInterpolation(unindexed column: String) {
            fragments.append(.unindexed(column))
        }

        /// `query`'s fragments and values, where it stands.
        public mutating func appendInterpolation(_ query: SQLQuery) {
            fragments += query.fragments
        }

        /// Writes `text` into the statement: only the stores' own fragments, never a value.
        public mutating func appendInterpolation(unescaped text: String) {
            fragments.append(.text(text))
        }
    }
}

extension Array where Element == SQLQuery {
    /// The queries one after another, `separator` between them.
    public func joined(separator: String) -> SQLQuery {
        var query = SQLQuery()
        for (index, part) in enumerated() {
            if index > 0 { query.append(unescaped: separator) }
            query.append(part)
        }
        return query
    }
}

/// A piece of a statement; the dialect spells all but plain text.
enum SQLFragment: Sendable {
    /// Text both databases read alike.
    case text(String)
    /// A value bound where it stands, cast to a type when one is given.
    case value(SQLValue, SQLType?)
    /// A named text's value by its number.
    case parameter(Int, SQLType?)
    /// Membership in an array bound where it stands.
    case membership(SQLValue)
    /// Membership in a named text's array value, by its number.
    case parameterMembership(Int)
    /// A function each database names its own way.
    case function(SQLFunction)
    /// A row lock.
    case lock(SQLRowLock)
    /// A column kept from the planner's index choice.
    case unindexed(String)
}

/// A statement's fixed text, named by a type of its own so each database can keep it compiled.
public protocol SQLText: SendableMetatype {
    /// The statement, its values numbered (`\(param: 1)`, `\(param: 2)`…), serialised once per database.
    static var sql: SQLQuery { get }
}

/// The types a value or a column is given, in the stores' terms; each dialect names them.
public enum SQLType: Sendable {
    /// A 64-bit integer.
    case integer
    /// A double.
    case real
    /// UTF-8 text.
    case text
    /// Bytes.
    case blob
    /// True or false.
    case boolean
    /// A moment, kept to the millisecond.
    case date
}

/// Functions the two databases name differently.
public enum SQLFunction: Sendable {
    /// The largest of its arguments (SQLite's many-argument `max`).
    case greatest
    /// The smallest of its arguments (SQLite's many-argument `min`).
    case least
    /// Texts of a group joined by a separator (SQLite's `group_concat`).
    case stringAggregate
}

/// A lock a reading statement takes on the rows it reads, until its transaction ends.
public enum SQLRowLock: Sendable {
    /// `FOR UPDATE`: every row read.
    case forUpdate
    /// `FOR UPDATE OF table`: the rows of one table of a join.
    case forUpdateOf(String)
}
