extension Validator where Value: Comparable & Sendable {
    /// Within `range`, both ends included.
    public static func range(_ range: ClosedRange<Value>, _ message: String) -> Validator {
        rule(message) { range.contains($0) }
    }
}

extension Validator where Value: BinaryFloatingPoint & SendableMetatype {
    /// A whole number (no fractional part), finite.
    public static func integral(_ message: String) -> Validator {
        rule(message) { $0.isFinite && $0.rounded() == $0 }
    }
}
