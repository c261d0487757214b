import Foundation

extension Date {
    /// SQLite keeps timestamps to the millisecond; values are rounded the same way before they are stored, so
    /// what a write returns equals what a later read finds.
    var storagePrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
