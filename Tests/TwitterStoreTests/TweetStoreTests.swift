import Foundation
import Testing
import TwitterCore

@testable import TwitterStore

struct TweetStoreTests {
    struct Fixture {
        let users: UserStore
        let tweets: TweetStore
        let hub = TweetHub()

        init() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tweets-\(UUID()).sqlite").path
            let database = try AppDatabase.open(path: path)
            users = UserStore(database: database)
            tweets = TweetStore(database: database, hub: hub)
        }

        func user(_ name: String) async throws -> User {
            try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil)
        }
    }

    @Test func concurrentPostsShareTransactionsAndAllArrive() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.user("alice")
        let subscription = fixture.hub.subscribe(authorID: nil)
        let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await fixture.tweets.postTweet(text: "post \(index)", idempotencyKey: nil, by: alice.id).id
                }
            }
            var ids: [Int64] = []
            for try await id in group { ids.append(id) }
            return ids
        }
        #expect(Set(ids).count == 200)
        let fetched = try await fixture.tweets.fetchTweets(TweetQuery(limit: 200))
        #expect(fetched.map(\.id) == ids.sorted(by: >))
        // Published after commit, in id order.
        var published: [Int64] = []
        for _ in 0..<200 {
            if case .event(.posted(let tweet)) = await subscription.next() { published.append(tweet.id) }
        }
        #expect(published == ids.sorted())
    }

    @Test func idempotencyKeyReturnsTheFirstTweetForTheSameUserOnly() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let first = try await fixture.tweets.postTweet(text: "once", idempotencyKey: "k1", by: alice.id)
        let again = try await fixture.tweets.postTweet(text: "once more", idempotencyKey: "k1", by: alice.id)
        #expect(again.id == first.id)
        #expect(again.text == "once")
        let bobs = try await fixture.tweets.postTweet(text: "mine", idempotencyKey: "k1", by: bob.id)
        #expect(bobs.id != first.id)
        #expect(try await fixture.tweets.fetchTweets(TweetQuery()).count == 2)
    }

    @Test func onlyTheAuthorMayDelete() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let tweet = try await fixture.tweets.postTweet(text: "hi", idempotencyKey: nil, by: alice.id)
        await #expect(throws: TwitterError(.forbidden, "Tweet \(tweet.id) is not yours to delete")) {
            try await fixture.tweets.deleteTweet(id: tweet.id, by: bob.id)
        }
        try await fixture.tweets.deleteTweet(id: tweet.id, by: alice.id)
        await #expect(throws: TwitterError.notFound("Tweet \(tweet.id)")) {
            try await fixture.tweets.deleteTweet(id: tweet.id, by: alice.id)
        }
        #expect(try await fixture.tweets.tweet(id: tweet.id) == nil)
    }

    @Test func fetchFiltersBySinceMaxAndAuthor() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        var ids: [Int64] = []
        for index in 0..<10 {
            let author = index.isMultiple(of: 2) ? alice.id : bob.id
            ids.append(try await fixture.tweets.postTweet(text: "t\(index)", idempotencyKey: nil, by: author).id)
        }
        let newer = try await fixture.tweets.fetchTweets(TweetQuery(sinceID: ids[6]))
        #expect(newer.map(\.id) == [ids[9], ids[8], ids[7]])
        let older = try await fixture.tweets.fetchTweets(TweetQuery(maxID: ids[3], limit: 2))
        #expect(older.map(\.id) == [ids[2], ids[1]])
        let alices = try await fixture.tweets.fetchTweets(TweetQuery(authorID: alice.id))
        #expect(alices.allSatisfy { $0.author.username == "alice" })
        #expect(alices.count == 5)
        let catchUp = try await fixture.tweets.tweets(after: ids[7], authorID: nil, limit: 10)
        #expect(catchUp.map(\.id) == [ids[8], ids[9]])
    }
}

/// The in-memory feed must answer exactly what the database would, after posts and deletions.
struct FeedCacheAgreementTests {
    @Test func cachedPagesEqualDatabasePages() async throws {
        let fixture = try TweetStoreTests.Fixture()
        let alice = try await fixture.user("alice")
        var ids: [Int64] = []
        for index in 0..<700 {
            ids.append(try await fixture.tweets.postTweet(text: "t\(index)", idempotencyKey: nil, by: alice.id).id)
        }
        _ = try await fixture.tweets.fetchTweets(TweetQuery())
        for index in stride(from: 650, to: 700, by: 7) {
            try await fixture.tweets.deleteTweet(id: ids[index], by: alice.id)
        }
        for index in 0..<30 {
            ids.append(try await fixture.tweets.postTweet(text: "late \(index)", idempotencyKey: nil, by: alice.id).id)
        }
        let probes: [TweetQuery] = [
            TweetQuery(), TweetQuery(limit: 200), TweetQuery(sinceID: ids[690]),
            TweetQuery(sinceID: ids[100], limit: 200),
            TweetQuery(maxID: ids[720], limit: 50), TweetQuery(maxID: ids[300], limit: 20),
            TweetQuery(sinceID: ids[660], maxID: ids[710], limit: 200), TweetQuery(sinceID: ids[729]),
        ]
        for query in probes {
            let answered = try await fixture.tweets.fetchTweets(query).map(\.id)
            let stored = try await fixture.tweets.fetchFromDatabase(query).map(\.id)
            #expect(answered == stored, "\(query)")
        }
    }
}
