import Foundation

/// RFC 3339 UTC timestamps with millisecond precision, the protocol's only time format.
public enum Timestamp {
    /// Formats `date` as `2026-11-22T06:01:34.123Z`, rounded to the nearest millisecond.
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        write(date, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the timestamp's 24 characters to `bytes`.
    ///
    /// Rounding (not truncation) makes a time that went through SQLite's millisecond text and back format
    /// exactly like the original; writing the digits by hand keeps feeds off Foundation's formatters.
    public static func write(_ date: Date, into bytes: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(floorDivide(milliseconds, 1000))
        let fraction = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendDigits(Int(parts.tm_year) + 1900, width: 4, into: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, width: 2, into: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), width: 2, into: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), width: 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), width: 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), width: 2, into: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(fraction, width: 3, into: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses an RFC 3339 timestamp with or without fractional seconds; nil when it is not one.
    public static func date(from text: String) -> Date? {
        RFC3339DateParser.date(from: text)
    }

    private static func appendDigits(_ value: Int, width: Int, into bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = max(value, 0)
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Division rounding towards negative infinity, so times before 1970 format correctly too.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
