import Foundation
import GRDB
import Testing
import TwitterCore

@testable import TwitterStore

/// Upgrading a database keeps what it held and gives it what the new version records.
struct MigrationTests {
    @Test func tweetsFromBeforeV4AreSearchableTaggedAndKeepTheirMentions() async throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue, upTo: "v3: follows, replies, reposts, likes")
        try await queue.write { db in
            let now = Date()
            for (id, name) in [(1, "Alice"), (2, "bob")] {
                try db.execute(
                    sql: """
                        INSERT INTO user (id, username, usernameKey, email, emailKey, createdAt, updatedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, name, name.lowercased(), "\(name)@x.org", "\(name)@x.org", now, now])
            }
            for (author, text) in [(2, "hi @alice and @nobody #Old"), (1, "plain words only"), (1, "#old #OLD again")] {
                try db.execute(
                    sql: "INSERT INTO tweet (authorId, text, createdAt) VALUES (?, ?, ?)",
                    arguments: [author, text, now])
            }
        }
        let database = try AppDatabase(queue)
        let tweets = TweetStore(database: database, observer: CommitRecorder())
        let mentioned = try #require(try await tweets.tweet(id: 1))
        #expect(mentioned.entities.mentions == [.init(username: "Alice", start: 3, end: 9)])
        #expect(try await tweets.tweets(TweetQuery(.tag("old"))).map(\.id) == [3, 1])
        let search = SearchStore(database: database)
        let found = try await search.search(
            try SearchQuery(parsing: "plain words"), authorID: nil, hiding: [], limit: 10, from: SearchPosition())
        #expect(found.tweets.map(\.id) == [2], "the text index was built over the old tweets")
        let trending = try await search.trending(since: Date().addingTimeInterval(-60), limit: 10)
        #expect(trending == [TrendingTag(tag: "old", tweetsCount: 2, usersCount: 2)])
        #expect(
            try await NotificationStore(database: database).unreadCount(of: 1, hiding: []) == 0,
            "old mentions are news to no one")
    }
}
