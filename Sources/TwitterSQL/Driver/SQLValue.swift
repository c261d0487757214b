import Foundation

/// A value bound to a placeholder or read from a column, in the few kinds both databases share. A driver turns
/// it into its own: SQLite keeps a `bool` as 0 or 1 and a `date` as text, PostgreSQL as `bool` and `timestamptz`.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
    case date(Date)
    /// An array, for `= ANY($n)`: PostgreSQL's `bigint[]`, SQLite's JSON text.
    case integers([Int64])
    /// An array, for `= ANY($n)`: PostgreSQL's `text[]`, SQLite's JSON text.
    case texts([String])
}

extension SQLValue: SQLBindable {
    /// The value as bound: itself.
    public var sqlValue: SQLValue { self }
}

/// A Swift value a query binds.
public protocol SQLBindable: Sendable {
    /// The value as bound.
    var sqlValue: SQLValue { get }
}

/// A Swift value a column is read as; the error names the column when its value is not one.
public protocol SQLDecodable {
    /// The Swift value of `value`; throws when `value` is not of this kind (NULL included, but for optionals).
    init(sqlValue value: SQLValue) throws
}

/// A column whose value is not of the kind asked for: a schema and a store that disagree, never client input.
public struct SQLDecodingError: Error, CustomStringConvertible {
    /// What the column held, and what it was read as.
    public let description: String

    init(_ type: Any.Type, _ value: SQLValue) {
        description = "A column holds \(value), not a \(type)"
    }
}

extension Int64: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .integer(self) }

    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        switch value {
        case .integer(let integer): self = integer
        case .bool(let bool): self = bool ? 1 : 0
        default: throw SQLDecodingError(Int64.self, value)
        }
    }
}

extension Int: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .integer(Int64(self)) }

    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        self = Int(try Int64(sqlValue: value))
    }
}

extension Bool: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .bool(self) }

    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        switch value {
        case .bool(let bool): self = bool
        case .integer(let integer): self = integer != 0
        default: throw SQLDecodingError(Bool.self, value)
        }
    }
}

extension Double: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .real(self) }

    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        switch value {
        case .real(let real): self = real
        case .integer(let integer): self = Double(integer)
        default: throw SQLDecodingError(Double.self, value)
        }
    }
}

extension String: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .text(self) }

    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        guard case .text(let text) = value else { throw SQLDecodingError(String.self, value) }
        self = text
    }
}

extension Data: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .blob(self) }

    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        guard case .blob(let data) = value else { throw SQLDecodingError(Data.self, value) }
        self = data
    }
}

extension Date: SQLBindable, SQLDecodable {
    /// The value as bound.
    public var sqlValue: SQLValue { .date(self) }

    /// A `timestamptz` as PostgreSQL's driver reads it, or SQLite's text as GRDB writes it.
    public init(sqlValue value: SQLValue) throws {
        switch value {
        case .date(let date): self = date
        case .text(let text):
            guard let date = StoredDateText.date(text) else { throw SQLDecodingError(Date.self, value) }
            self = date
        default: throw SQLDecodingError(Date.self, value)
        }
    }
}

/// A value an array of which binds, for `= ANY($n)`.
public protocol SQLArrayElement: Sendable {
    /// `values` as bound.
    static func arrayValue(_ values: [Self]) -> SQLValue
}

extension Int64: SQLArrayElement {
    /// The array as bound.
    public static func arrayValue(_ values: [Int64]) -> SQLValue { .integers(values) }
}

extension String: SQLArrayElement {
    /// The array as bound.
    public static func arrayValue(_ values: [String]) -> SQLValue { .texts(values) }
}

extension Array: SQLBindable where Element: SQLArrayElement {
    /// The value as bound.
    public var sqlValue: SQLValue { Element.arrayValue(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// The value as bound.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    /// The value a column holds; throws when it holds another kind.
    public init(sqlValue value: SQLValue) throws {
        self = value == .null ? nil : try Wrapped(sqlValue: value)
    }
}
