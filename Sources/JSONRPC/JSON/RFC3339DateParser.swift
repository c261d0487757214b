import Foundation

/// Parses RFC 3339 timestamps such as `2024-01-02T03:04:05.123+02:00`.
///
/// Hand-written instead of using `ISO8601DateFormatter` because that class is not `Sendable`, needs
/// separate instances with and without fractional seconds, and accepts forms RFC 3339 does not.
enum RFC3339DateParser {
    /// Generous bound on a timestamp's length so hostile strings are rejected before any work.
    private static let maximumLength = 64

    /// The instant `string` denotes, or `nil` if it is not a valid RFC 3339 date-time.
    static func date(from string: String) -> Date? {
        guard string.utf8.count <= maximumLength else {
            return nil
        }
        let bytes = Array(string.utf8)
        var index = 0

        func digits(_ width: Int) -> Int? {
            guard index + width <= bytes.count else {
                return nil
            }
            var value = 0
            for byte in bytes[index..<(index + width)] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
                    return nil
                }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }

        func consume(_ allowed: UInt8...) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else {
                return false
            }
            index += 1
            return true
        }

        guard let year = digits(4), consume(UInt8(ascii: "-")),
            let month = digits(2), consume(UInt8(ascii: "-")),
            let day = digits(2), consume(UInt8(ascii: "T"), UInt8(ascii: "t")),
            let hour = digits(2), consume(UInt8(ascii: ":")),
            let minute = digits(2), consume(UInt8(ascii: ":")),
            let second = digits(2)
        else {
            return nil
        }

        var fraction = 0.0
        if consume(UInt8(ascii: ".")) {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else {
                return nil
            }
            fraction = value
        }

        var offsetSeconds = 0
        if consume(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHour = digits(2), consume(UInt8(ascii: ":")), let offsetMinute = digits(2),
                offsetHour <= 23, offsetMinute <= 59
            else {
                return nil
            }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        } else {
            return nil
        }

        // Second 60 is allowed for leap seconds; Date cannot represent them, so it rolls into the next minute.
        guard index == bytes.count,
            (1...12).contains(month),
            (1...daysInMonth(year: year, month: month)).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else {
            return nil
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2:
            let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return isLeap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    ///
    /// Pure arithmetic avoids `Calendar`, whose time-zone and locale state is irrelevant for UTC instants.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
