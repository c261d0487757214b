import Foundation

@testable import TwitterSQLite

/// An `AppDatabase` in a file of its own in the temporary folder; `remove()` closes it and removes the file, its
/// log and its index: `let scratch = try ScratchDatabase("name")`, `defer { scratch.remove() }`.
struct ScratchDatabase {
    let path: String
    let database: AppDatabase

    init(_ name: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).sqlite").path
        database = try AppDatabase.open(path: path)
    }

    func remove() {
        try? database.close()
        WALCheckpointerTests.remove(path)
    }
}
