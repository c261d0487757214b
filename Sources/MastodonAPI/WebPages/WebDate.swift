import Foundation

/// Dates as people read them beside a post: `now`, `5m`, `3h` within a day, `Nov 25` within the year,
/// `Nov 25, 2024` before it. In UTC, so a page reads the same wherever it is rendered.
enum WebDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as seen at `now`.
    static func human(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return "now" }
        if seconds < 3600 { return "\(seconds / 60)m" }
        if seconds < 86_400 { return "\(seconds / 3600)h" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        let day = "\(month) \(parts.day ?? 1)"
        return calendar.component(.year, from: now) == parts.year ? day : "\(day), \(parts.year ?? 0)"
    }

    /// `date` for `<time datetime>`, to the second.
    static func machine(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
