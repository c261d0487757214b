import Foundation

extension Date {
    /// SQLite keeps timestamps to the millisecond (GRDB writes them truncated). Values are cut to the
    /// millisecond before they are stored, plus 50 µs so that binary rounding cannot push the stored value
    /// below the boundary: what a write returns then formats exactly like what a later read finds.
    var storagePrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000 + 0.000_05)
    }
}
