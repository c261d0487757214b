/// A JSON number kept as its exact source text.
///
/// Keeping the text (rather than a `Double`) lets ids such as `1.50` or `1e3` be echoed exactly,
/// and lets integers beyond 2^53 be decoded without loss. Equality compares the text, so `1.0` and `1`
/// are different numbers here, just as they are different ids to a JSON-RPC client.
public struct JSONNumber: Sendable, Hashable {
    /// The number as written, guaranteed to match the RFC 8259 number grammar.
    public let text: String

    /// Creates a number from an integer.
    public init(_ value: Int) {
        text = String(value)
    }

    /// Creates a number from a `Double` using its shortest round-trip text; `nil` for NaN or infinity.
    ///
    /// A trailing `.0` is dropped so that integral values read as integers, matching `JSONEncoder`.
    public init?(_ value: Double) {
        guard value.isFinite else {
            return nil
        }
        var description = value.description
        if description.hasSuffix(".0") {
            description.removeLast(2)
        }
        self.init(text: description)
    }

    /// Creates a number from text, or `nil` if the text is not a JSON number (e.g. `01`, `+1`, `1.`, `NaN`).
    public init?(text: String) {
        guard Self.isValidNumber(text.utf8) else {
            return nil
        }
        self.text = text
    }

    /// Wraps text the parser has already validated, avoiding a second scan.
    init(validatedText: String) {
        text = validatedText
    }

    /// The value as an `Int64`, or `nil` if it is not integral or is out of range.
    ///
    /// Fractions and exponents are allowed when the value is exactly integral: `1e3` is 1000, `1.0` is 1.
    public var int64: Int64? {
        exactInteger(as: Int64.self)
    }

    /// The value as an `Int`, or `nil` if it is not integral or is out of range.
    public var int: Int? {
        exactInteger(as: Int.self)
    }

    /// The nearest `Double`, or `nil` when the magnitude overflows to infinity.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else {
            return nil
        }
        return value
    }

    /// Whether the value is a whole number, regardless of whether it fits any integer type.
    public var isIntegral: Bool {
        let decimal = decompose()
        return decimal.digits.isEmpty || decimal.exponent >= 0
    }

    /// The value converted exactly to `T`, or `nil` if it is fractional or out of range.
    ///
    /// Works on the decimal digits rather than on a `Double` so that large integers are exact and
    /// overflow is detected instead of trapping.
    func exactInteger<T: FixedWidthInteger>(as type: T.Type) -> T? {
        let decimal = decompose()
        if decimal.digits.isEmpty {
            return 0
        }
        guard decimal.exponent >= 0 else {
            return nil
        }
        // Anything with more than 40 significant decimal places exceeds every 128-bit integer;
        // the early exit also keeps huge exponents such as 1e999999 from looping.
        guard decimal.digits.count + decimal.exponent <= 40 else {
            return nil
        }
        if decimal.negative && !T.isSigned {
            return nil
        }
        var result: T = 0
        let totalPlaces = decimal.digits.count + decimal.exponent
        for place in 0..<totalPlaces {
            let digit = place < decimal.digits.count ? T(decimal.digits[place]) : 0
            let (shifted, overflowMultiply) = result.multipliedReportingOverflow(by: 10)
            // Accumulating negatives downwards lets T.min be represented.
            let (next, overflowAdd) =
                decimal.negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            if overflowMultiply || overflowAdd {
                return nil
            }
            result = next
        }
        return result
    }

    /// Splits the text into sign, significant digits and a power-of-ten exponent.
    ///
    /// Leading zeros are dropped and trailing zeros folded into the exponent, so the value is
    /// integral exactly when `exponent >= 0` (or there are no digits, meaning zero).
    private func decompose() -> (negative: Bool, digits: [UInt8], exponent: Int) {
        var negative = false
        var digits: [UInt8] = []
        var fractionCount = 0
        var exponent = 0
        var exponentNegative = false
        var section = 0  // 0: integer part, 1: fraction, 2: exponent
        // Clamping keeps arithmetic on absurd exponents far from Int overflow; any clamped value is
        // already beyond the 40-digit limit checked by callers.
        let exponentClamp = 1 << 40
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if section == 2 {
                    exponentNegative = true
                } else {
                    negative = true
                }
            case UInt8(ascii: "+"):
                break
            case UInt8(ascii: "."):
                section = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                section = 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = byte - UInt8(ascii: "0")
                if section == 2 {
                    exponent = min(exponent * 10 + Int(digit), exponentClamp)
                } else {
                    if section == 1 {
                        fractionCount += 1
                    }
                    if !(digits.isEmpty && digit == 0) {
                        digits.append(digit)
                    }
                }
            default:
                break
            }
        }
        var power = (exponentNegative ? -exponent : exponent) - fractionCount
        while let last = digits.last, last == 0 {
            digits.removeLast()
            power += 1
        }
        return (negative, digits, power)
    }

    /// Checks `utf8` against the RFC 8259 number grammar.
    private static func isValidNumber(_ utf8: String.UTF8View) -> Bool {
        var iterator = utf8.makeIterator()
        var current = iterator.next()

        func isDigit(_ byte: UInt8?) -> Bool {
            guard let byte else {
                return false
            }
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        if current == UInt8(ascii: "-") {
            current = iterator.next()
        }
        if current == UInt8(ascii: "0") {
            current = iterator.next()
        } else if let byte = current, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") {
            while isDigit(current) {
                current = iterator.next()
            }
        } else {
            return false
        }
        if current == UInt8(ascii: ".") {
            current = iterator.next()
            guard isDigit(current) else {
                return false
            }
            while isDigit(current) {
                current = iterator.next()
            }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            current = iterator.next()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                current = iterator.next()
            }
            guard isDigit(current) else {
                return false
            }
            while isDigit(current) {
                current = iterator.next()
            }
        }
        return current == nil
    }
}
