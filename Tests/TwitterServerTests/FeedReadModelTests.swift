import Foundation
import Testing
import TwitterCore
import TwitterStore

@testable import TwitterServer

/// The read model must answer exactly what the store would, after posts and deletions, and stream the commits.
struct FeedReadModelTests {
    static func decodedIDs(_ page: FeedPage) throws -> [Int64] {
        let object = try JSONSerialization.jsonObject(with: Data(page.json)) as? [String: Any]
        let tweets = object?["tweets"] as? [[String: Any]] ?? []
        return tweets.compactMap { ($0["id"] as? NSNumber)?.int64Value }
    }

    @Test func pagesFromMemoryEqualStorePages() async throws {
        let database = try AppDatabase.inMemory()
        let model = FeedReadModel(hub: TweetHub())
        let store = TweetStore(database: database, observer: model)
        let stores = ReadStores(tweets: store, likes: LikeStore(database: database, observer: model))
        let alice = try await UserStore(database: database).createUser(
            email: "alice@example.com", username: "alice", passwordHash: nil)
        var ids: [Int64] = []
        for index in 0..<700 {
            ids.append(try await store.postTweet(text: "t\(index)", idempotencyKey: nil, by: alice.id).id)
        }
        #expect(model.pageInMemory(TweetQuery(), reader: alice.id) == nil, "nothing is in memory before the first read")
        _ = try await model.page(TweetQuery(), reader: alice.id, stores: stores)
        #expect(model.pageInMemory(TweetQuery(), reader: alice.id) != nil)
        for index in stride(from: 650, to: 700, by: 7) {
            try await store.deleteTweet(id: ids[index], by: alice.id)
        }
        for index in 0..<30 {
            ids.append(try await store.postTweet(text: "late \(index)", idempotencyKey: nil, by: alice.id).id)
        }
        let probes: [TweetQuery] = [
            TweetQuery(), TweetQuery(limit: 200), TweetQuery(sinceID: ids[690]),
            TweetQuery(sinceID: ids[100], limit: 200),
            TweetQuery(maxID: ids[720], limit: 50), TweetQuery(maxID: ids[300], limit: 20),
            TweetQuery(sinceID: ids[660], maxID: ids[710], limit: 200), TweetQuery(sinceID: ids[729]),
            TweetQuery(.author(alice.id)),
        ]
        for query in probes {
            let answered = try Self.decodedIDs(try await model.page(query, reader: alice.id, stores: stores))
            let stored = try await store.tweets(query).map(\.id)
            #expect(answered == stored, "\(query)")
        }
    }

    @Test func aCommitMovesTheVersionOnAndReachesTheLiveStreams() async throws {
        let hub = TweetHub()
        let model = FeedReadModel(hub: hub)
        let subscription = hub.subscribe(.everyone)
        let before = model.newest.version
        let tweet = Tweet(
            id: 1, author: Tweet.Author(id: 7, username: "alice"), text: "hi", createdAt: Date(timeIntervalSince1970: 0)
        )
        model.committed([.posted(tweet)])
        #expect(model.newest.version == before + 1)
        #expect(await subscription.next() == .event(.posted(tweet)))
    }
}
