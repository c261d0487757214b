import Foundation
import GRDB
import TwitterCore

/// Fills a database with random users and tweets in large transactions, for demos and benchmarks.
public struct DatabaseSeeder: Sendable {
    let database: AppDatabase
    /// Rows per transaction: large enough that fsync is rare, small enough that progress moves.
    static let batchSize = 50_000

    /// Creates a seeder over `database`.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Adds `count` users `seedN` with e-mails `seedN@example.com`, all with the password hash given;
    /// returns the first and last new user id.
    public func addUsers(
        _ count: Int, passwordHash: String, content: inout RandomContent, progress: (Int) -> Void
    ) async throws -> ClosedRange<Int64>? {
        guard count > 0 else { return nil }
        let start = try await database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM user") ?? 0
        }
        var done = 0
        while done < count {
            let size = min(Self.batchSize, count - done)
            var rows: [(String, String, String, String)] = []
            for index in done..<(done + size) {
                let name = content.name()
                let number = Int(start) + index + 1
                rows.append(("seed\(number)", "seed\(number)@example.com", name.first, name.last))
            }
            let batch = rows
            try await database.writer.write { db in
                let now = Date()
                let statement = try db.makeStatement(
                    sql: """
                        INSERT INTO user (username, usernameKey, email, emailKey, passwordHash, firstName, lastName, bio,
                            version, createdAt, updatedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, '', 1, ?, ?)
                        """)
                for row in batch {
                    try statement.execute(arguments: [row.0, row.0, row.1, row.1, passwordHash, row.2, row.3, now, now])
                }
            }
            done += size
            progress(done)
        }
        return (start + 1)...(start + Int64(count))
    }

    /// Adds `count` tweets by random authors from `authors`, dated over the last 30 days in id order.
    public func addTweets(
        _ count: Int, authors: ClosedRange<Int64>, content: inout RandomContent, progress: (Int) -> Void
    ) async throws {
        let span: TimeInterval = 30 * 86_400
        let begin = Date().addingTimeInterval(-span)
        let authorCount = Int(authors.upperBound - authors.lowerBound + 1)
        var done = 0
        while done < count {
            let size = min(Self.batchSize, count - done)
            var rows: [(Int64, String, Date)] = []
            rows.reserveCapacity(size)
            for index in done..<(done + size) {
                let author = authors.lowerBound + Int64(content.below(authorCount))
                let date = begin.addingTimeInterval(span * Double(index) / Double(max(count, 1)))
                rows.append((author, content.tweet(), date))
            }
            let batch = rows
            try await database.writer.write { db in
                let statement = try db.makeStatement(
                    sql: "INSERT INTO tweet (authorId, text, createdAt) VALUES (?, ?, ?)")
                for row in batch { try statement.execute(arguments: [row.0, row.1, row.2]) }
            }
            done += size
            progress(done)
        }
    }
}
