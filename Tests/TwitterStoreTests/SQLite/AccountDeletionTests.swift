import Foundation
import GRDB
import Testing
import TwitterCore
import TwitterSQL

@testable import TwitterSQLite

/// SQLite specifics of deleting an account: no row of any table refers to it afterwards.
struct AccountDeletionTests {
    /// Every column that refers to an account: the foreign keys to `users` the schema declares, and the account
    /// ids kept without one.
    static func accountColumns(_ db: Database) throws -> [(table: String, column: String)] {
        var columns: [(table: String, column: String)] = [("tweet_tags", "author_id")]
        let tables = try String.fetchAll(
            db,
            sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        for table in tables {
            for key in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table.quotedDatabaseIdentifier))")
            where (key["table"] as String) == "users" {
                columns.append((table, key["from"]))
            }
        }
        return columns
    }

    /// How many rows of each account column hold `userID`, by `table.column`.
    static func references(to userID: Int64, in database: AppDatabase) async throws -> [String: Int] {
        try await database.writer.read { db in
            var counts: [String: Int] = [:]
            for (table, column) in try accountColumns(db) {
                counts["\(table).\(column)"] = try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) = ?",
                    arguments: [userID])
            }
            return counts
        }
    }

    @Test func deletionLeavesNoRowThatRefersToTheAccount() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("delete-\(UUID()).sqlite").path
        let database = try AppDatabase.open(path: path)
        let observer = CommitRecorder()
        let users = UserStore(database: database)
        let tweets = TweetStore(database: database, observer: observer)
        let follows = FollowStore(database: database, observer: observer)
        let likes = LikeStore(database: database, observer: observer)
        let relations = RelationStore(database: database, observer: observer)
        let moderation = ModerationStore(database: database, observer: observer)
        let accounts = AccountStore(database: database, observer: observer)
        var people: [String: User] = [:]
        for name in ["alice", "bob", "carol", "dave", "erin", "frank", "grace"] {
            people[name] = try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil)
        }
        let alice = try #require(people["alice"])
        let bob = try #require(people["bob"])
        let carol = try #require(people["carol"])
        let (dave, erin, frank, grace) = try (
            #require(people["dave"]), #require(people["erin"]), #require(people["frank"]), #require(people["grace"])
        )

        // Bob does everything there is to do, and others do everything there is to do to bob.
        let original = try await tweets.postTweet(text: "the original", by: alice.id)
        let bobs = try await tweets.postTweet(text: "bob's quixotically unique #bobtag @alice", by: bob.id)
        _ = try await tweets.post(PostDraft(text: "quixotically answering", by: bob.id, inReplyToID: original.id))
        _ = try await tweets.repost(original.id, by: bob.id)
        _ = try await tweets.repost(bobs.id, by: carol.id)
        _ = try await tweets.postTweet(text: "hi @bob", by: carol.id)
        _ = try await likes.like(original.id, by: bob.id)
        _ = try await likes.like(bobs.id, by: carol.id)
        _ = try await BookmarkStore(database: database, observer: observer).bookmark(original.id, by: bob.id)
        _ = try await BookmarkStore(database: database, observer: observer).bookmark(bobs.id, by: carol.id)
        try await PinStore(database: database).pin(bobs.id, by: bob.id)
        let lists = ListStore(database: database, observer: observer)
        let bobsList = try await lists.createList(ListDraft(name: "bob's"), by: bob.id)
        _ = try await lists.addMember(carol.id, to: bobsList.id, by: bob.id)
        let carolsList = try await lists.createList(ListDraft(name: "carol's"), by: carol.id)
        _ = try await lists.addMember(bob.id, to: carolsList.id, by: carol.id)
        _ = try await follows.follow(alice.id, by: bob.id)
        _ = try await follows.follow(bob.id, by: alice.id)
        _ = try await relations.mute(dave.id, by: bob.id)
        _ = try await relations.mute(bob.id, by: erin.id)
        _ = try await relations.block(frank.id, by: bob.id)
        _ = try await relations.block(bob.id, by: grace.id)
        _ = try await NotificationStore(database: database).markRead(of: bob.id, upTo: Int64.max, hiding: [])
        _ = try await TokenStore(database: database).insertToken(
            userID: bob.id, kind: .session, name: "password", hash: Array(repeating: 1, count: 32),
            createdAt: Date(), expiresAt: nil)
        try await PeerLinkStore(database: database).linkPeer(uid: 4242, userID: bob.id, at: Date())
        let oauth = OAuthStore(database: database)
        let app = try await oauth.insertApp(
            clientID: "twc_app", secretHash: Array(repeating: 3, count: 32), name: "toot", redirectURIs: ["oob"],
            scopes: OAuthScopes(["read"]), website: nil, createdAt: Date())
        try await oauth.insertCode(
            hash: Array(repeating: 4, count: 32), appID: app.id, userID: bob.id, scopes: OAuthScopes(["read"]),
            redirectURI: "oob", createdAt: Date(), expiresAt: Date().addingTimeInterval(600))
        _ = try await moderation.createReport(
            by: bob.id, account: alice.id, tweet: original.id, reason: "mean", notifying: [carol.id], at: Date())
        _ = try await moderation.createReport(
            by: alice.id, account: bob.id, tweet: bobs.id, reason: "meaner", notifying: [carol.id], at: Date())
        try await accounts.storeResetCode(Array(repeating: 2, count: 32), for: bob.id, expiresAt: Date())
        try await RateBucketStore(database: database).save([
            (bob.id, .posts, TokenBucket(tokens: 1, updatedAt: Date()))
        ])

        let before = try await Self.references(to: bob.id, in: database)
        #expect(before.keys.contains("tokens.user_id") && before.keys.contains("tweet_tags.author_id"))
        #expect(before.filter { $0.value == 0 }.isEmpty, "the test leaves no column unused: \(before)")
        // In the index itself, so the deletion must take them out of it.
        try SearchIndexer.catchUp(database.writer)
        let matches = "SELECT COUNT(*) FROM tweet_search WHERE tweet_search MATCH 'quixotically'"
        #expect(try await database.writer.read { try Int.fetchOne($0, sql: matches) } == 2)

        try await accounts.deleteAccount(bob.id, reservingNameUntil: Date().addingTimeInterval(86_400))
        let after = try await Self.references(to: bob.id, in: database)
        #expect(after.filter { $0.value != 0 }.isEmpty, "\(after)")
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(try await database.writer.read { try Int.fetchOne($0, sql: matches) } == 0, "nothing found by text")
        #expect(try await lists.list(id: bobsList.id) == nil)
        #expect(try await lists.list(id: carolsList.id)?.membersCount == 0, "carol's list counts bob no more")
        let foreignKeyErrors = try await database.writer.read { db in
            try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
        }
        #expect(foreignKeyErrors == 0)
        let others = try await Self.references(to: alice.id, in: database)
        #expect(others["tweets.author_id"] == 1, "alice keeps her tweet")
        #expect(others["reports.reporter_id"] == 0 && others["reports.account_id"] == 0, "both reports named bob")
    }
}
