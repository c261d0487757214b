import Foundation
import JSONRPC
import Synchronization
import Testing
import TwitterCore
import TwitterRuntime
import TwitterSQL
import TwitterSQLite

@testable import TwitterServer

/// The read model must answer exactly what the store would, after posts and deletions, and stream the commits.
struct FeedReadModelTests {
    /// The stores a page reads besides `tweets`, on `database`, reporting to `observer`.
    static func readStores(_ tweets: TweetStore, database: AppDatabase, observer: any CommitObserving) -> ReadStores {
        ReadStores(
            tweets: tweets, likes: LikeStore(database: database, observer: observer),
            follows: FollowStore(database: database, observer: observer),
            relations: RelationStore(database: database, observer: observer))
    }

    static func decodedIDs(_ page: FeedPage) throws -> [Int64] {
        let object = try JSONSerialization.jsonObject(with: Data(page.json)) as? [String: Any]
        let tweets = object?["tweets"] as? [[String: Any]] ?? []
        return tweets.compactMap { ($0["id"] as? NSNumber)?.int64Value }
    }

    @Test func cachedPagesEqualStorePages() async throws {
        let database = try AppDatabase.inMemory()
        let model = FeedReadModel(hub: CommitHub())
        let store = TweetStore(database: database, observer: model)
        let stores = Self.readStores(store, database: database, observer: model)
        let alice = try await UserStore(database: database).createUser(
            email: "alice@example.com", username: "alice", passwordHash: nil)
        var ids: [Int64] = []
        for index in 0..<700 {
            ids.append(try await store.postTweet(text: "t\(index)", idempotencyKey: nil, by: alice.id).id)
        }
        #expect(model.cachedPage(TweetQuery(), reader: alice.id) == nil, "nothing is cached before the first read")
        _ = try await model.page(TweetQuery(), reader: alice.id, stores: stores)
        #expect(model.cachedPage(TweetQuery(), reader: alice.id) != nil)
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

    /// Home and user pages merged from the caches must be the store's pages, through posts, reposts, deletions,
    /// likes, follows and unfollows made after the windows were loaded.
    @Test func cachedHomeAndUserPagesEqualStorePages() async throws {
        let database = try AppDatabase.inMemory()
        let model = FeedReadModel(hub: CommitHub())
        let tweets = TweetStore(database: database, observer: model)
        let follows = FollowStore(database: database, observer: model)
        let likes = LikeStore(database: database, observer: model)
        let stores = ReadStores(
            tweets: tweets, likes: likes, follows: follows,
            relations: RelationStore(database: database, observer: model))
        var users: [Int64] = []
        for index in 0..<12 {
            users.append(
                try await UserStore(database: database).createUser(
                    email: "u\(index)@example.com", username: "u\(index)", passwordHash: nil
                ).id)
        }
        var content = RandomContent(seed: 42)
        var posted: [Tweet] = []
        func churn(_ rounds: Int) async throws {
            for _ in 0..<rounds {
                let user = users[content.below(users.count)]
                switch content.below(10) {
                case 0:
                    _ = try await follows.follow(users[content.below(users.count)], by: user)
                case 1:
                    _ = try await follows.unfollow(users[content.below(users.count)], by: user)
                case 2 where !posted.isEmpty:
                    // The original may have gone, with its reposts.
                    if let repost = try? await tweets.repost(posted[content.below(posted.count)].id, by: user) {
                        posted.append(repost)
                    }
                case 3 where !posted.isEmpty:
                    let victim = posted.remove(at: content.below(posted.count))
                    try? await tweets.deleteTweet(id: victim.id, by: victim.author.id)
                case 4 where !posted.isEmpty:
                    _ = try? await likes.like(posted[content.below(posted.count)].id, by: user)
                default:
                    let parent = posted.isEmpty || content.below(4) > 0 ? nil : posted[content.below(posted.count)].id
                    if let tweet = try? await tweets.post(PostDraft(text: "t", by: user, inReplyToID: parent)) {
                        posted.append(tweet)
                    }
                }
            }
        }
        try await churn(300)
        for reader in users { _ = try await model.page(TweetQuery(.home(reader)), reader: reader, stores: stores) }
        // Enough that every window has long been full: deep pages must come from the store.
        try await churn(1500)
        var fromCaches = 0
        for reader in users {
            let marks = try await likes.marks(of: reader)
            let newest = try await tweets.tweets(TweetQuery(.home(reader), limit: 1)).first?.id ?? 0
            let queries = [
                TweetQuery(.home(reader)), TweetQuery(.home(reader), limit: 5),
                TweetQuery(.home(reader), sinceID: newest - 40), TweetQuery(.home(reader), maxID: newest - 10),
                TweetQuery(.home(reader), maxID: newest - 200, limit: 50), TweetQuery(.author(reader)),
            ]
            for query in queries {
                if model.cachedPage(query, reader: reader) != nil { fromCaches += 1 }
                let answered = try await model.page(query, reader: reader, stores: stores).json
                var wider = query
                wider.limit = FeedReadModel.widerLimit(query.limit)
                let stored = Timeline.collapsed(try await tweets.tweets(wider), limit: query.limit).map(marks.applied)
                #expect(answered == FeedPage(stored, json: TweetJSONCache()).json, "\(query)")
            }
        }
        #expect(fromCaches > users.count * 3, "most pages came from the caches: \(fromCaches)")

        // Kept pages (the second read of each round is the page cache's) are never those of an older version.
        var kept = 0
        for _ in 0..<8 {
            try await churn(25)
            for reader in users {
                let query = TweetQuery(.home(reader))
                let marks = try await likes.marks(of: reader)
                var wider = query
                wider.limit = FeedReadModel.widerLimit(query.limit)
                let stored = FeedPage(
                    Timeline.collapsed(try await tweets.tweets(wider), limit: query.limit).map(marks.applied),
                    json: TweetJSONCache()
                ).json
                let version = model.caches.recentTweets.version
                for _ in 0..<2 {
                    #expect(try await model.page(query, reader: reader, stores: stores).json == stored, "\(query)")
                }
                if model.caches.homeAndUserPages.page(for: query, at: version) != nil { kept += 1 }
            }
        }
        #expect(kept > users.count * 4, "most second reads came from the page cache: \(kept)")
    }

    @Test func aCommitMovesTheVersionOnAndReachesTheLiveStreams() async throws {
        let hub = CommitHub()
        let model = FeedReadModel(hub: hub)
        let subscription = hub.subscribe(.everyone)
        let before = model.caches.recentTweets.version
        let tweet = Tweet(
            id: 1, author: Tweet.Author(id: 7, username: "alice"), text: "hi", createdAt: Date(timeIntervalSince1970: 0)
        )
        model.committed([.tweet(.posted(tweet))])
        #expect(model.caches.recentTweets.version == before + 1)
        #expect(await subscription.next() == .event(.tweet(.posted(tweet))))
    }

    /// Deliveries the test holds back, to run when it says.
    final class HeldDeliveries: Sendable {
        let held = Mutex<[@Sendable () -> Void]>([])
        func start(_ delivery: @escaping @Sendable () -> Void) { held.withLock { $0.append(delivery) } }
        func runAll() {
            for delivery in held.withLock({ held in
                defer { held = [] }; return held
            }) { delivery() }
        }
    }

    /// The stores publish; the model is subscribed. With the publisher's delivery held back, a read that cannot
    /// wait does not answer from caches, and a page read after an answered post waits for its delivery and holds
    /// it; a tweet the store's page already held when its commit is delivered is not held twice.
    @Test func aReadWaitsForWhatIsPublishedFirstAndATweetLoadedBeforeItsDeliveryIsHeldOnce() async throws {
        let database = try AppDatabase.inMemory()
        let deliveries = HeldDeliveries()
        let commits = CommitPublisher(startDelivery: deliveries.start)
        let model = FeedReadModel(hub: CommitHub(), commits: commits)
        commits.subscribe(model)
        let store = TweetStore(database: database, observer: commits)
        let stores = Self.readStores(store, database: database, observer: commits)
        let alice = try await UserStore(database: database).createUser(
            email: "alice@example.com", username: "alice", passwordHash: nil)
        let first = try await store.postTweet(text: "first", by: alice.id)
        deliveries.runAll()
        _ = try await model.page(TweetQuery(), reader: alice.id, stores: stores)
        let second = try await store.postTweet(text: "second", by: alice.id)
        #expect(!commits.isApplied, "the publisher's delivery is held back")
        #expect(model.cachedPage(TweetQuery(), reader: alice.id) == nil, "a read that cannot wait goes elsewhere")
        let reading = Task { try await model.page(TweetQuery(), reader: alice.id, stores: stores) }
        deliveries.runAll()
        #expect(try Self.decodedIDs(try await reading.value) == [second.id, first.id], "the read waited for it")
        let page = try #require(model.cachedPage(TweetQuery(), reader: alice.id))
        #expect(try Self.decodedIDs(page) == [second.id, first.id])

        // A fresh model loads its caches from the store after a commit it has not been delivered yet.
        let late = FeedReadModel(hub: CommitHub())
        let third = try await store.postTweet(text: "third", by: alice.id)
        _ = try await late.page(TweetQuery(), reader: alice.id, stores: stores)
        _ = try await late.page(TweetQuery(.author(alice.id)), reader: alice.id, stores: stores)
        late.committed([.tweet(.posted(third))])
        for query in [TweetQuery(), TweetQuery(.author(alice.id))] {
            let cached = try #require(late.cachedPage(query, reader: alice.id))
            #expect(try Self.decodedIDs(cached) == [third.id, second.id, first.id], "\(query)")
        }
        deliveries.runAll()
    }

    /// A subscription waits for what is published before it joins the hub (as the subscribe methods do,
    /// `FeedReadModel.waitUntilApplied`): a post answered before it is not news to it.
    @Test func aSubscriptionMadeAfterWaitingHearsNothingAnsweredBeforeIt() async throws {
        let deliveries = HeldDeliveries()
        let commits = CommitPublisher(startDelivery: deliveries.start)
        let hub = CommitHub()
        let model = FeedReadModel(hub: hub, commits: commits)
        commits.subscribe(model)
        let tweet = { (id: Int64) in
            Tweet(
                id: id, author: Tweet.Author(id: 7, username: "alice"), text: "hi",
                createdAt: Date(timeIntervalSince1970: 0))
        }
        commits.committed([.tweet(.posted(tweet(1)))])
        let joining = Task {
            await model.waitUntilApplied()
            return hub.subscribe(.everyone)
        }
        deliveries.runAll()
        let subscription = await joining.value
        commits.committed([.tweet(.posted(tweet(2)))])
        deliveries.runAll()
        #expect(await subscription.next() == .event(.tweet(.posted(tweet(2)))), "the first post came before it")
    }

    /// A suspension changes what every layer holds, so the model starts over from the store.
    @Test func aChangeOfStandingReplacesTheCaches() async throws {
        let database = try AppDatabase.inMemory()
        let model = FeedReadModel(hub: CommitHub())
        let tweets = TweetStore(database: database, observer: model)
        let stores = Self.readStores(tweets, database: database, observer: model)
        let users = UserStore(database: database)
        let alice = try await users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let bob = try await users.createUser(email: "bob@example.com", username: "bob", passwordHash: nil)
        let hers = try await tweets.postTweet(text: "hers", by: alice.id)
        let his = try await tweets.postTweet(text: "his", by: bob.id)
        #expect(
            try Self.decodedIDs(try await model.page(TweetQuery(), reader: alice.id, stores: stores)) == [
                his.id, hers.id,
            ])
        let cached = try #require(model.cachedPage(TweetQuery(), reader: alice.id))
        #expect(try Self.decodedIDs(cached) == [his.id, hers.id])

        // Other commits keep the layers.
        let before = model.caches
        let later = try await tweets.postTweet(text: "later", by: alice.id)
        #expect(model.caches === before)
        #expect(
            try model.cachedPage(TweetQuery(), reader: alice.id).map(Self.decodedIDs) == [later.id, his.id, hers.id])

        let moderation = ModerationStore(database: database, observer: model)
        #expect(try await moderation.suspend(bob.id, reason: "spam", at: Date()))
        #expect(model.caches !== before, "new layers")
        #expect(model.cachedPage(TweetQuery(), reader: alice.id) == nil, "nothing cached: reads go to the store")
        #expect(
            try Self.decodedIDs(try await model.page(TweetQuery(), reader: alice.id, stores: stores)) == [
                later.id, hers.id,
            ])
        #expect(try model.cachedPage(TweetQuery(), reader: alice.id).map(Self.decodedIDs) == [later.id, hers.id])

        let suspended = model.caches
        #expect(try await moderation.unsuspend(bob.id))
        #expect(model.caches !== suspended)
        #expect(
            try Self.decodedIDs(try await model.page(TweetQuery(), reader: alice.id, stores: stores))
                == [later.id, his.id, hers.id])
    }
}
