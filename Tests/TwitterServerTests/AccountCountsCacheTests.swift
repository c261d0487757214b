import Testing
import TwitterCore
import TwitterRuntime
import TwitterSQL
import TwitterSQLite

@testable import TwitterServer

/// The read model's kept counts (`AccountCountsCache`, `FeedReadModel.counts`): after every kind of commit that
/// changes a count, the kept counts (once read again) are what the store counts, and a load that a commit raced is
/// not kept.
struct AccountCountsCacheTests {
    @Test func theKeptCountsAreTheStoresAfterFollowsPostsRepostsDeletionsAndBlocks() async throws {
        let database = try AppDatabase.inMemory()
        let model = FeedReadModel(hub: CommitHub())
        let follows = FollowStore(database: database, observer: model)
        let tweets = TweetStore(database: database, observer: model)
        let relations = RelationStore(database: database, observer: model)
        let users = UserStore(database: database)
        var ids: [Int64] = []
        for name in ["ann", "bo", "cy"] {
            ids.append(
                try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil).id)
        }
        let (ann, bo, cy) = (ids[0], ids[1], ids[2])
        var annsTweet: Int64 = 0
        let changes: [(String, @Sendable () async throws -> Void)] = [
            ("nothing yet", {}),
            ("bo follows ann", { _ = try await follows.follow(ann, by: bo) }),
            ("cy follows ann", { _ = try await follows.follow(ann, by: cy) }),
            ("ann follows bo", { _ = try await follows.follow(bo, by: ann) }),
            ("ann posts", { _ = try await tweets.postTweet(text: "hi", idempotencyKey: nil, by: ann) }),
            ("cy unfollows ann", { _ = try await follows.unfollow(ann, by: cy) }),
            ("ann blocks bo, which ends both follows", { _ = try await relations.block(bo, by: ann) }),
            ("ann unblocks bo", { _ = try await relations.unblock(bo, by: ann) }),
        ]
        for (change, run) in changes {
            try await run()
            for account in ids {
                let kept = try await model.counts(of: account, store: follows)
                #expect(model.caches.accountCounts.cached(account) == kept, "kept after \(change)")
                #expect(kept == (try await follows.counts(of: account)), "\(change), account \(account)")
            }
        }
        annsTweet = try await tweets.postTweet(text: "again", idempotencyKey: nil, by: ann).id
        let repost = try await tweets.repost(annsTweet, by: cy)
        #expect(try await model.counts(of: cy, store: follows).tweets == 1, "a repost counts")
        #expect(try await model.counts(of: ann, store: follows).tweets == 2)
        try await tweets.deleteTweet(id: annsTweet, by: ann)
        #expect(model.caches.accountCounts.cached(cy) == nil, "the repost went with its original")
        #expect(try await model.counts(of: cy, store: follows) == (try await follows.counts(of: cy)))
        #expect(try await model.counts(of: ann, store: follows).tweets == 1)
        #expect(repost.repostOf?.id == annsTweet)
        // The overview counts as the store's own count does.
        let overview = try #require(try await follows.overview(of: "ann", viewerID: 0))
        #expect(overview.counts == (try await model.counts(of: ann, store: follows)))
        let uncounted = try #require(try await follows.overview(of: "ann", viewerID: 0, counted: false))
        #expect(uncounted.counts == AccountCounts(followers: 0, following: 0, tweets: 0))
    }

    @Test func aLoadThatACommitRacedAnswersItsReadButIsNotKept() async throws {
        let cache = AccountCountsCache()
        let old = AccountCounts(followers: 1, following: 0, tweets: 0)
        let raced = try await cache.counts(of: 7) {
            cache.apply([.relation(.followed(followerID: 8, followeeID: 7))])
            return old
        }
        #expect(raced == old && cache.cached(7) == nil)
        let counted = AccountCounts(followers: 2, following: 0, tweets: 0)
        #expect(try await cache.counts(of: 7) { counted } == counted)
        #expect(try await cache.counts(of: 7) { old } == counted, "kept: not counted again")
        cache.apply([.tweet(.liked(id: 1, userID: 7)), .relation(.muted(muterID: 7, mutedID: 9))])
        #expect(cache.cached(7) == counted, "a like or a mute changes no count")
        cache.apply([.relation(.unfollowed(followerID: 8, followeeID: 7))])
        #expect(cache.cached(7) == nil)
    }
}
