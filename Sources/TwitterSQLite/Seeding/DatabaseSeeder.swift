import Foundation
import GRDB
import TwitterCore
import TwitterRules
import TwitterSQL

// @MemberwiseInit
/// Fills a database with random users and tweets in large transactions, for demos and benchmarks.
public struct DatabaseSeeder: Sendable {
    let database: AppDatabase
    /// Rows per transaction: large enough that fsync is rare, small enough that progress moves.
    static let batchSize = 50_000

    /// Adds `count` users `seedN` with e-mails `seedN@example.com`, all with the password hash given;
    /// returns the first and last new user id.
    public func addUsers(
        _ count: Int, passwordHash: String, content: inout RandomContent, progress: (Int) -> Void
    ) async throws -> ClosedRange<Int64>? {
        guard count > 0 else { return nil }
        let start = try await database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM users") ?? 0
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
                        INSERT INTO users (username, username_key, email, email_key, password_hash, first_name, last_name, bio,
                            version, created_at, updated_at)
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
                    sql: "INSERT INTO tweets (author_id, text, created_at) VALUES (?, ?, ?)")
                for row in batch {
                    try statement.execute(arguments: [row.0, row.1, row.2])
                    // Seeded tweets carry tags like posted ones, so tags and trending have something to show.
                    for tag in Set(EntityScanner.scan(row.1).hashtags.map { EntityScanner.tagKey($0.tag) }) {
                        try db.cachedStatement(
                            sql: "INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at) VALUES (?, ?, ?, ?)"
                        ).execute(arguments: [tag, db.lastInsertedRowID, row.0, row.2])
                    }
                }
                try SearchIndexer.indexWaiting(db)
            }
            done += size
            progress(done)
        }
    }
}

// The social graph and what hangs on it.
extension DatabaseSeeder {
    /// Makes each of `users` follow about `average` others (between half and one and a half times it), picked
    /// by popularity so that a few accounts have very many followers and most have few.
    public func addFollows(
        average: Int, users: ClosedRange<Int64>, content: inout RandomContent, progress: (Int) -> Void
    ) async throws {
        let count = Int(users.upperBound - users.lowerBound + 1)
        let picker = PopularityPicker(count: count)
        var rows: [(Int64, Int64)] = []
        var done = 0
        for follower in users {
            let wanted = min(count - 1, average / 2 + content.below(average + 1))
            var followees: Set<Int64> = []
            var attempts = 0
            while followees.count < wanted, attempts < wanted * 20 {
                attempts += 1
                let followee = users.lowerBound + Int64(picker.pick(&content))
                if followee != follower { followees.insert(followee) }
            }
            rows += followees.map { (follower, $0) }
            done += 1
            if rows.count >= Self.batchSize || follower == users.upperBound {
                let batch = rows
                rows = []
                try await database.writer.write { db in
                    let statement = try db.makeStatement(
                        sql: "INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)")
                    let now = Date()
                    for row in batch { try statement.execute(arguments: [row.0, row.1, now]) }
                }
                progress(done)
            }
        }
    }

    /// Adds replies, reposts and likes among the tweets there are, with the counters kept right: `replies` and
    /// `reposts` new tweets answering or reposting a random earlier tweet, and `likes` likes by random users.
    public func addEngagement(
        replies: Int, reposts: Int, likes: Int, users: ClosedRange<Int64>, content: inout RandomContent,
        progress: (Int) -> Void
    ) async throws {
        let newest = try await database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM tweets") ?? 0
        }
        guard newest > 0 else { return }
        let userCount = Int(users.upperBound - users.lowerBound + 1)
        let total = replies + reposts + likes
        var done = 0
        while done < total {
            let size = min(Self.batchSize, total - done)
            var actions: [(kind: Int, user: Int64, tweet: Int64, text: String)] = []
            for index in done..<(done + size) {
                let kind = index < replies ? 0 : index < replies + reposts ? 1 : 2
                let user = users.lowerBound + Int64(content.below(userCount))
                // Recent tweets draw more answers, as on any timeline.
                let tweet = max(1, newest - Int64(content.below(Int(min(newest, 100_000)))))
                actions.append((kind, user, tweet, kind == 0 ? content.tweet() : ""))
            }
            let batch = actions
            try await database.writer.write { db in
                let now = Date()
                // The counters move as the stores move them (`TweetRows.adjust`), the target found as theirs is.
                func target(of id: Int64) throws -> Int64? {
                    try SQLiteConnection.run(db) { try await TweetRows.target($0, of: id) }
                }
                func adjust(_ id: Int64, _ counter: TweetCounter) throws {
                    _ = try SQLiteConnection.run(db) { try await TweetRows.adjust($0, id, counter, by: 1) }
                }
                for action in batch {
                    guard let target = try target(of: action.tweet) else { continue }
                    switch action.kind {
                    case 0:
                        try db.execute(
                            sql: "INSERT INTO tweets (author_id, text, created_at, in_reply_to_id) VALUES (?, ?, ?, ?)",
                            arguments: [action.user, action.text, now, target])
                        try adjust(target, .replies)
                    case 1:
                        try db.execute(
                            sql:
                                "INSERT OR IGNORE INTO tweets (author_id, text, created_at, repost_of_id) VALUES (?, '', ?, ?)",
                            arguments: [action.user, now, target])
                        if db.changesCount > 0 { try adjust(target, .reposts) }
                    default:
                        try db.execute(
                            sql: "INSERT OR IGNORE INTO tweet_likes (tweet_id, user_id, created_at) VALUES (?, ?, ?)",
                            arguments: [target, action.user, now])
                        if db.changesCount > 0 { try adjust(target, .likes) }
                    }
                }
                try SearchIndexer.indexWaiting(db)
            }
            done += size
            progress(done)
        }
    }
}
