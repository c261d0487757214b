import Foundation
import GRDB
import Testing
import TwitterCore
import TwitterSQL

@testable import TwitterSQLite

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
        #expect(try await database.writer.read(SearchIndexer.indexedThrough) == 3, "and knows it holds them")
        let trending = try await search.trending(since: Date().addingTimeInterval(-60), limit: 10)
        #expect(trending == [TrendingTag(tag: "old", tweetsCount: 2, usersCount: 2)])
        #expect(
            try await NotificationStore(database: database).unreadCount(of: 1, hiding: []) == 0,
            "old mentions are news to no one")
    }

    @Test func v5AppliesToAV4DatabaseAndKeepsItsRows() async throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue, upTo: "v4: mentions, tags, search, notifications, mutes, blocks")
        #expect(try await queue.read { try $0.tableExists("report") } == false)
        let moment = Date(timeIntervalSince1970: 1_700_000_000)
        try await queue.write { db in
            for (id, name) in [(1, "alice"), (2, "bob")] {
                try db.execute(
                    sql: """
                        INSERT INTO user (id, username, usernameKey, email, emailKey, createdAt, updatedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, name, name, "\(name)@x.org", "\(name)@x.org", moment, moment])
            }
            try db.execute(
                sql: """
                    INSERT INTO tweet (id, authorId, text, createdAt, likesCount) VALUES (1, 1, 'old #tag', ?, 1);
                    INSERT INTO tweet (id, authorId, text, createdAt, inReplyToId) VALUES (2, 2, 'old answer', ?, 1);
                    UPDATE tweet SET repliesCount = 1 WHERE id = 1;
                    INSERT INTO tweetLike (tweetId, userId, createdAt) VALUES (1, 2, ?);
                    INSERT INTO follow (followerId, followeeId, createdAt) VALUES (2, 1, ?);
                    INSERT INTO notification (recipientId, type, actorId, tweetId, createdAt) VALUES (1, 'like', 2, 1, ?);
                    """, arguments: [moment, moment, moment, moment, moment])
        }
        let database = try AppDatabase(queue)
        #expect(try await queue.read { try $0.tableExists("reports") && $0.tableExists("rate_buckets") })
        let observer = CommitRecorder()
        let moderation = ModerationStore(database: database, observer: observer)
        let tweets = TweetStore(database: database, observer: observer)
        let listed = try await moderation.accounts(matching: nil, status: nil, page: PageRequest())
        #expect(
            listed.items == [
                ModeratedAccount(
                    id: 2, username: "bob", email: "bob@x.org", status: .active, createdAt: moment,
                    suspendedReason: nil),
                ModeratedAccount(
                    id: 1, username: "alice", email: "alice@x.org", status: .active, createdAt: moment,
                    suspendedReason: nil),
            ], "every old account is active")
        let old = try await NotificationStore(database: database).notifications(
            of: 1, NotificationQuery(), hiding: [])
        #expect(old.map(\.type) == [.like] && old.first?.reportID == nil)

        // The old rows take part in what v5 adds.
        #expect(try await moderation.suspend(2, reason: "old spam", at: moment))
        #expect(try await tweets.tweet(id: 1)?.counts == TweetCounts(likes: 0, reposts: 0, replies: 0))
        #expect(try await moderation.unsuspend(2))
        #expect(try await tweets.tweet(id: 1)?.counts == TweetCounts(likes: 1, reposts: 0, replies: 1))
        let report = try await moderation.createReport(
            by: 1, account: 2, tweet: 2, reason: "old", notifying: [2], at: moment)
        #expect(try await moderation.reports(status: .open, page: PageRequest()).items.map(\.id) == [report])
        try await RateBucketStore(database: database).save([(1, .posts, TokenBucket(tokens: 2, updatedAt: moment))])
        #expect(try await RateBucketStore(database: database).allBuckets().count == 1)
        try await AccountStore(database: database, observer: observer).deleteAccount(
            2, reservingNameUntil: moment.addingTimeInterval(1e9))
        #expect(try await UserStore(database: database).isUsernameTaken("bob"))
        #expect(try await tweets.tweet(id: 1)?.counts == TweetCounts(likes: 0, reposts: 0, replies: 0))
    }

    @Test func v9GivesEveryTableAndColumnTheSharedNamesAndKeepsRowsAndTheTextIndex() async throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue, upTo: "v8: signup rate buckets per local user")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (id, username, usernameKey, email, emailKey, createdAt, updatedAt)
                    VALUES (1, 'alice', 'alice', 'a@x.org', 'a@x.org', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                    INSERT INTO tweet (id, authorId, text, createdAt) VALUES (1, 1, 'indexed marigold', '2026-01-01 00:00:00.000');
                    INSERT INTO tweet (id, authorId, text, createdAt) VALUES (2, 1, 'waiting marigold', '2026-01-01 00:00:00.000');
                    INSERT INTO tweetSearch(rowid, text) VALUES (1, 'indexed marigold');
                    UPDATE searchIndexMark SET indexedThrough = 1;
                    """)
        }
        let database = try AppDatabase(queue)
        try await queue.read { db in
            let tables = try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'"
            )
            #expect(tables.contains("users") && tables.contains("tweets") && tables.contains("tweet_search"))
            for table in tables {
                #expect(table.allSatisfy { $0.isLowercase || $0 == "_" }, "table \(table)")
                for column in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))") {
                    let name: String = column["name"]
                    #expect(name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(table).\(name)")
                }
            }
        }
        let search = SearchStore(database: database)
        let found = try await search.search(
            try SearchQuery(parsing: "marigold"), authorID: nil, hiding: [], limit: 10, from: SearchPosition())
        #expect(found.tweets.map(\.id) == [2, 1], "the index made again holds the old tweets")
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM tweets WHERE id = 1")
            // Throws when the index holds a row the tweets no longer do: the new trigger took it out.
            try db.execute(sql: "INSERT INTO tweet_search(tweet_search, rank) VALUES ('integrity-check', 1)")
        }
    }
}
