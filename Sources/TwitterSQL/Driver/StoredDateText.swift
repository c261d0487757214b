import Foundation

/// SQLite's timestamps as GRDB writes them, "YYYY-MM-DD HH:MM:SS.SSS" in UTC (a `T` for the space and fewer
/// fraction digits read too), parsed and written by hand: a `DateFormatter` per column read would cost more than
/// the read, and GRDB's own writing (`Date.databaseValue`) is a `DateFormatter`, which is ICU. The first date a
/// daemon bound, a login's session, loaded ICU's calendar and locale data, and the daemon held 3.3 MB more of its
/// binary's pages from then on (bench/analysis.md, "Durable posts and memory (#51, continued)"); each batch of
/// posts paid ICU's formatting for its one time, some 13,000 instructions.
public enum StoredDateText {
    /// The date `text` names; nil when it is not such a timestamp.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10),
            bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20, bytes[19] == UInt8(ascii: "."), let digits = number(20..<bytes.count) {
            fraction = Double(digits) / pow(10, Double(bytes.count - 20))
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The milliseconds since 1970 of 10000-01-01, the first time whose year has five digits.
    private static let endMilliseconds = 253_402_300_800_000.0
    private static let millisecondsADay: Int64 = 86_400_000

    /// The text GRDB's `Date.databaseValue` writes for `date`, so that rows written either way compare and sort
    /// alike (`StoredDateTextTests` checks the two against each other); nil before 1970 and from the year 10000 on,
    /// which the caller leaves to GRDB: ICU writes days before 1582 in the Julian calendar and a fifth digit of the
    /// year, and no date the stores keep comes near either.
    public static func text(_ date: Date) -> String? {
        // Foundation's `DateFormatter` computes this double, adds the half, and ICU takes its floor: the nearest
        // millisecond, half up.
        let milliseconds =
            (date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate)
            * 1000 + 0.5
        guard milliseconds >= 0, milliseconds < endMilliseconds else { return nil }
        return text(millisecondsSince1970: Int64(milliseconds.rounded(.down)))
    }

    private static func text(millisecondsSince1970 milliseconds: Int64) -> String {
        let (year, month, day) = civil(daysSince1970: milliseconds / millisecondsADay)
        let millisecondOfDay = milliseconds % millisecondsADay
        let second = millisecondOfDay / 1000
        return String(unsafeUninitializedCapacity: 23) { buffer in
            var at = 0
            func put(_ value: Int64, digits: Int, then separator: String.UTF8View.Element?) {
                var value = value
                for place in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[at + place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
                at += digits
                if let separator {
                    buffer[at] = separator
                    at += 1
                }
            }
            put(year, digits: 4, then: UInt8(ascii: "-"))
            put(month, digits: 2, then: UInt8(ascii: "-"))
            put(day, digits: 2, then: UInt8(ascii: " "))
            put(second / 3600, digits: 2, then: UInt8(ascii: ":"))
            put(second / 60 % 60, digits: 2, then: UInt8(ascii: ":"))
            put(second % 60, digits: 2, then: UInt8(ascii: "."))
            put(millisecondOfDay % 1000, digits: 3, then: nil)
            return at
        }
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01, at or after it (Howard Hinnant's
    /// `civil_from_days`, the inverse of `daysFromCivil`): eras of 400 years, each year starting in March so that
    /// the leap day is its last.
    private static func civil(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
