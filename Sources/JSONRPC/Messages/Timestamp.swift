import Foundation

/// RFC 3339 UTC timestamps with millisecond precision, the protocol's only time format.
public enum Timestamp {
    /// Formats `date` as `2026-11-22T06:01:34.123Z`.
    public static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    /// Parses an RFC 3339 timestamp with or without fractional seconds; nil when it is not one.
    public static func date(from text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
