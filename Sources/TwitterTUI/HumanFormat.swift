import Foundation

/// Numbers and dates as people read them: `1 tweet`, `3h`, `Nov 25`, `joined November 2026`. Shared by twctl's
/// text output and the TUI; `--json` prints the raw values instead.
public enum HumanFormat {
    /// `1 tweet`, `2 tweets`, `1 reply`, `2 replies`.
    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(count == 1 ? noun : plural(of: noun))"
    }

    /// The English plural of the nouns twctl counts.
    public static func plural(of noun: String) -> String {
        if noun.hasSuffix("y"), let last = noun.dropLast().last, !"aeiou".contains(last) {
            return noun.dropLast() + "ies"
        }
        if noun.hasSuffix("s") || noun.hasSuffix("sh") || noun.hasSuffix("ch") || noun.hasSuffix("x") {
            return noun + "es"
        }
        return noun + "s"
    }

    /// How long ago, as feeds show it: `now`, `5m`, `3h` within a day, then the date: `Nov 25`, with the year
    /// when it is not this year's (`Nov 25, 2025`).
    public static func age(of date: Date, now: Date, timeZone: TimeZone = .current) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        default:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let thisYear = calendar.component(.year, from: now)
            let day = "\(monthAbbreviations[(parts.month ?? 1) - 1]) \(parts.day ?? 1)"
            return parts.year == thisYear ? day : "\(day), \(parts.year ?? thisYear)"
        }
    }

    /// `November 2026`: when an account was made.
    public static func month(of date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month], from: date)
        return "\(monthNames[(parts.month ?? 1) - 1]) \(parts.year ?? 1970)"
    }

    // English names whatever the locale: the rest of twctl's words are English too.
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    static let monthAbbreviations = monthNames.map { String($0.prefix(3)) }
}
