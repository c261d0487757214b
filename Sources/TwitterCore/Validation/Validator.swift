/// One failing check: the field it concerns (nil for the value as a whole) and a message for people.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The field's name, dotted for nested fields (`profile.firstName`, `tags[2]`); nil for the whole value.
    public var field: String?
    /// What is wrong, worded for the person who typed the value.
    public var message: String

    /// Creates a failure.
    public init(field: String? = nil, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { field.map { "\($0): \(message)" } ?? message }

    /// The same failure, nested under `parent`.
    func nested(under parent: String) -> ValidationFailure {
        guard let field else { return ValidationFailure(field: parent, message) }
        let separator = field.hasPrefix("[") ? "" : "."
        return ValidationFailure(field: parent + separator + field, message)
    }
}

/// A rule as a value: checks a `Value` and returns every failure, each naming its field.
///
/// Validators compose: key-path rules check one property of a model and name it; `all` reports every
/// failing field at once; `and` stops at the first failing rule for a field, so one field gets one message.
public struct Validator<Value>: Sendable {
    private let check: @Sendable (Value) -> [ValidationFailure]

    /// A rule from a closure returning the failures (empty when the value is valid).
    public init(_ check: @escaping @Sendable (Value) -> [ValidationFailure]) {
        self.check = check
    }

    /// Every failure of `value`; empty when it is valid.
    public func failures(for value: Value) -> [ValidationFailure] {
        check(value)
    }

    /// True when `value` passes.
    public func accepts(_ value: Value) -> Bool {
        check(value).isEmpty
    }

    /// Throws `TwitterError.invalidFields` listing every failure, keyed by field; the whole-value failures
    /// go under `wholeValueField`.
    public func validate(_ value: Value, wholeValueField: String = "params") throws(TwitterError) {
        let found = check(value)
        guard !found.isEmpty else { return }
        var fields: [String: String] = [:]
        for failure in found where fields[failure.field ?? wholeValueField] == nil {
            fields[failure.field ?? wholeValueField] = failure.message
        }
        throw TwitterError.invalidFields(fields)
    }
}

extension Validator {
    /// A rule that passes when `predicate` holds, and otherwise fails with `message`.
    public static func rule(_ message: String, _ predicate: @escaping @Sendable (Value) -> Bool) -> Validator {
        Validator { predicate($0) ? [] : [ValidationFailure(message)] }
    }

    /// Always passes.
    public static var valid: Validator { Validator { _ in [] } }

    /// Reports the failures of every validator: the way to check several fields at once.
    public static func all(_ validators: [Validator]) -> Validator {
        Validator { value in validators.flatMap { $0.failures(for: value) } }
    }

    /// Passes when both pass; stops at this validator's failures so one field gets one message.
    public func and(_ other: Validator) -> Validator {
        Validator { value in
            let first = self.failures(for: value)
            return first.isEmpty ? other.failures(for: value) : first
        }
    }

    /// Passes when either passes; when both fail, reports this validator's failures.
    public func or(_ other: Validator) -> Validator {
        Validator { value in
            let first = self.failures(for: value)
            guard !first.isEmpty else { return [] }
            return other.failures(for: value).isEmpty ? [] : first
        }
    }

    /// Passes exactly when this validator fails.
    public func not(_ message: String) -> Validator {
        Validator { value in self.failures(for: value).isEmpty ? [ValidationFailure(message)] : [] }
    }

    /// Checks the property at `keyPath` with `validator` and names the failures after `field`.
    public static func field<Property>(
        _ keyPath: KeyPath<Value, Property> & Sendable, _ field: String, _ validator: Validator<Property>
    ) -> Validator {
        Validator { value in
            validator.failures(for: value[keyPath: keyPath]).map { $0.nested(under: field) }
        }
    }
}
