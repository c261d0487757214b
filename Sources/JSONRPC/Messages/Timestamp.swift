import Foundation

/// RFC 3339 UTC timestamps with millisecond precision, the protocol's only time format.
public enum Timestamp {
    /// Formats `date` as `2026-11-22T06:01:34.123Z`, rounded to the nearest millisecond.
    ///
    /// Rounding (not truncation) makes a time that went through SQLite's millisecond text and back format
    /// exactly like the original; formatting by hand keeps this off the Foundation formatter's slow path.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds.quotientFloor(1000))
        let fraction = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), fraction
        )
    }

    /// Parses an RFC 3339 timestamp with or without fractional seconds; nil when it is not one.
    public static func date(from text: String) -> Date? {
        RFC3339DateParser.date(from: text)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity, so times before 1970 format correctly too.
    fileprivate func quotientFloor(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
