import Foundation
import Testing
import TwitterCore

/// Archives, deletions, reset codes and stored rate buckets.
extension CommunityStoreTests {
    @Test(arguments: StoreBackend.all) func theArchiveHandsOutEveryEntryOnceInOrder(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let owner = try await fixture.user("owner")
        var others: [User] = []
        for name in ["bob", "carol", "dave", "erin", "frank"] { others.append(try await fixture.user(name)) }
        let theirs = try await fixture.post("theirs", by: others[0])
        let alsoTheirs = try await fixture.post("also theirs", by: others[1])
        // 1,200 tweets, queued together so they share commits, then two replies and a repost.
        let waits = (0..<1200).map { fixture.tweets.queued(PostDraft(text: "tweet \($0)", by: owner.id)) }
        var tweetIDs: [Int64] = []
        for wait in waits { tweetIDs.append(try await wait.value.id) }
        tweetIDs.append(try await fixture.post("a reply", by: owner, inReplyTo: theirs.id).id)
        tweetIDs.append(try await fixture.post("another", by: owner, inReplyTo: alsoTheirs.id).id)
        tweetIDs.append(try await fixture.tweets.repost(theirs.id, by: owner.id).id)
        #expect(tweetIDs.count == 1203)
        #expect(tweetIDs == tweetIDs.sorted(), "stored in the order queued")
        for other in others.prefix(3) { _ = try await fixture.follows.follow(other.id, by: owner.id) }
        _ = try await fixture.likes.like(alsoTheirs.id, by: owner.id)
        _ = try await fixture.likes.like(theirs.id, by: owner.id)
        _ = try await fixture.relations.mute(others[3].id, by: owner.id)
        _ = try await fixture.relations.block(others[4].id, by: owner.id)
        // Others' relationships to the owner are theirs, not the owner's.
        _ = try await fixture.follows.follow(owner.id, by: others[2].id)
        _ = try await fixture.relations.mute(owner.id, by: others[0].id)

        for limit in [500, 7, 1203, 1209, 1210, 1211] {
            var tweets: [Int64] = []
            var follows: [String] = []
            var likes: [Int64] = []
            var mutes: [String] = []
            var blocks: [String] = []
            var cursor = ArchiveCursor.start
            var pages = 0
            while pages <= 1210 {
                let page = try await fixture.accounts.archivePage(of: owner.id, from: cursor, limit: limit)
                pages += 1
                #expect((page.profile != nil) == (pages == 1), "the profile on the first page only")
                #expect(page.count == limit || page.next == nil, "only the last page is short (limit \(limit))")
                tweets += page.tweets.map(\.id)
                follows += page.follows.map(\.username)
                likes += page.likes.map(\.tweetId)
                mutes += page.mutes.map(\.username)
                blocks += page.blocks.map(\.username)
                guard let next = page.next else { break }
                #expect(ArchiveCursor(next.text) == next)
                cursor = next
            }
            #expect(pages == (1210 + limit - 1) / limit, "limit \(limit)")
            #expect(tweets == tweetIDs, "limit \(limit)")
            #expect(follows == ["bob", "carol", "dave"], "limit \(limit)")
            #expect(likes == [alsoTheirs.id, theirs.id], "limit \(limit)")
            #expect(mutes == ["erin"], "limit \(limit)")
            #expect(blocks == ["frank"], "limit \(limit)")
        }
        let first = try await fixture.accounts.archivePage(of: owner.id, from: .start, limit: 500)
        #expect(first.profile?.username == "owner")
        #expect(first.next == ArchiveCursor(section: .tweets, after: tweetIDs[499]))
    }

    @Test(arguments: StoreBackend.all) func deletionGivesCountersBackLeavesTombstonesAndReservesTheName(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let (carol, dave) = (try await fixture.user("carol"), try await fixture.user("dave"))
        let original = try await fixture.post("the original", by: alice)
        _ = try await fixture.likes.like(original.id, by: dave.id)
        _ = try await fixture.post("dave answers", by: dave, inReplyTo: original.id)
        _ = try await fixture.tweets.repost(original.id, by: carol.id)
        let untouched = try #require(try await fixture.tweets.tweet(id: original.id))
        #expect(untouched.counts == TweetCounts(likes: 1, reposts: 1, replies: 1))

        _ = try await fixture.likes.like(original.id, by: bob.id)
        _ = try await fixture.tweets.repost(original.id, by: bob.id)
        let answer = try await fixture.post("bob answers", by: bob, inReplyTo: original.id)
        let selfAnswer = try await fixture.post("bob again", by: bob, inReplyTo: answer.id)
        let below = try await fixture.post("carol below bob", by: carol, inReplyTo: answer.id)
        let bobsOwn = try await fixture.post("bob's own", by: bob)
        let onBobs = try await fixture.post("carol on bob's", by: carol, inReplyTo: bobsOwn.id)
        let lonely = try await fixture.post("nobody answers this", by: bob)
        _ = try await fixture.follows.follow(alice.id, by: bob.id)
        #expect(
            try await fixture.tweets.tweet(id: original.id)?.counts == TweetCounts(likes: 2, reposts: 2, replies: 2))
        let state = ThrottleState(failures: 3, lastFailureAt: Date(), windowStart: Date(), windowFailures: 3)
        for key in ["account:bob@example.com", "account:alice@example.com"] {
            try await fixture.throttle.updateThrottleState(for: key) { _ in state }
        }

        try await fixture.accounts.deleteAccount(bob.id, reservingNameUntil: Date().addingTimeInterval(30 * 86_400))
        #expect(fixture.commits.events.last == .account(.standingChanged(userID: bob.id)))
        #expect(try await fixture.tweets.tweet(id: original.id) == untouched, "counters as before bob acted")
        #expect(try await fixture.users.user(id: bob.id) == nil)
        let thread = try #require(try await fixture.tweets.thread(of: original.id, descendantLimit: 100))
        #expect(thread.descendants.contains(.deleted(id: answer.id, inReplyToID: original.id)))
        #expect(thread.descendants.contains(.deleted(id: selfAnswer.id, inReplyToID: answer.id)))
        #expect(
            thread.descendants.contains { $0.id == below.id && $0 != .deleted(id: below.id, inReplyToID: answer.id) })
        #expect(thread.descendants.count == 4, "dave's answer, bob's two placeholders and carol's answer")
        let onBobsThread = try #require(try await fixture.tweets.thread(of: onBobs.id, descendantLimit: 10))
        #expect(onBobsThread.ancestors == [.deleted(id: bobsOwn.id, inReplyToID: nil)])
        for id in [answer.id, bobsOwn.id, lonely.id] {
            #expect(try await fixture.tweets.tweet(id: id) == nil)
            #expect(try await fixture.tweets.thread(of: id, descendantLimit: 10) == nil)
        }
        #expect(try await fixture.tweets.tweets(TweetQuery(.author(bob.id))).isEmpty)
        #expect(try await fixture.follows.overview(of: "alice", viewerID: alice.id)?.followersCount == 0)
        #expect(try await fixture.follows.counts(of: alice.id).followers == 0)

        #expect(try await fixture.users.isUsernameTaken("BOB"))
        await #expect {
            _ = try await fixture.users.createUser(email: "new@example.com", username: "Bob", passwordHash: nil)
        } throws: {
            ($0 as? TwitterError)?.kind == .conflict
        }
        #expect(try await fixture.throttle.throttleState(for: "account:bob@example.com") == nil)
        #expect(try await fixture.throttle.throttleState(for: "account:alice@example.com") != nil, "others' stay")
        // The e-mail is free at once; a reservation that has run out frees the name.
        let again = try await fixture.users.createUser(email: "bob@example.com", username: "bobby", passwordHash: nil)
        try await fixture.accounts.deleteAccount(again.id, reservingNameUntil: Date().addingTimeInterval(-1))
        #expect(try await !fixture.users.isUsernameTaken("bobby"))
        _ = try await fixture.users.createUser(email: "b2@example.com", username: "bobby", passwordHash: nil)
        await #expect {
            try await fixture.accounts.deleteAccount(bob.id, reservingNameUntil: Date())
        } throws: {
            ($0 as? TwitterError)?.kind == .notFound
        }
    }

    @Test(arguments: StoreBackend.all) func resetCodesWorkOnceAndExpire(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let expiry = Date(timeIntervalSince1970: 1_700_003_600)
        let now = expiry.addingTimeInterval(-3600)
        let code: [UInt8] = Array(repeating: 7, count: 32)
        let wrong: [UInt8] = Array(repeating: 8, count: 32)
        try await fixture.accounts.storeResetCode(code, for: alice.id, expiresAt: expiry)
        #expect(try await fixture.accounts.takeResetCode(wrong, email: "alice@example.com", at: now) == nil)
        #expect(try await fixture.accounts.takeResetCode(code, email: "bob@example.com", at: now) == nil, "not bob's")
        #expect(
            try await fixture.accounts.takeResetCode(code, email: "ALICE@example.com", at: now) == alice.id,
            "a wrong guess keeps the code usable; the e-mail in any case")
        #expect(try await fixture.accounts.takeResetCode(code, email: "alice@example.com", at: now) == nil, "once")

        // A new code replaces the old one.
        try await fixture.accounts.storeResetCode(wrong, for: bob.id, expiresAt: expiry)
        try await fixture.accounts.storeResetCode(code, for: bob.id, expiresAt: expiry)
        #expect(try await fixture.accounts.takeResetCode(wrong, email: "bob@example.com", at: now) == nil)
        #expect(try await fixture.accounts.takeResetCode(code, email: "bob@example.com", at: now) == bob.id)

        // Expired: refused and gone, so a later take at an earlier clock finds nothing either.
        try await fixture.accounts.storeResetCode(code, for: alice.id, expiresAt: expiry)
        #expect(
            try await fixture.accounts.takeResetCode(code, email: "alice@example.com", at: expiry.addingTimeInterval(1))
                == nil)
        #expect(try await fixture.accounts.takeResetCode(code, email: "alice@example.com", at: now) == nil, "gone")
    }

    @Test(arguments: StoreBackend.all) func rateBucketsRoundTripAndGoWithTheirAccount(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let moment = Date(timeIntervalSince1970: 1_700_000_000.5)
        typealias Entry = (userID: Int64, action: RateLimitedAction, bucket: TokenBucket)
        func sorted(_ entries: [Entry]) -> [String] {
            entries.map {
                "\($0.userID) \($0.action.rawValue) \($0.bucket.tokens) \($0.bucket.updatedAt.timeIntervalSince1970)"
            }
            .sorted()
        }
        #expect(try await fixture.rateBuckets.allBuckets().isEmpty)
        let saved: [Entry] = [
            (alice.id, .posts, TokenBucket(tokens: 12.25, updatedAt: moment)),
            (alice.id, .likes, TokenBucket(tokens: 0, updatedAt: moment)),
            (bob.id, .posts, TokenBucket(tokens: 299.5, updatedAt: moment.addingTimeInterval(1))),
        ]
        try await fixture.rateBuckets.save(saved)
        #expect(sorted(try await fixture.rateBuckets.allBuckets()) == sorted(saved))
        // Saving again replaces a bucket, keeping the others.
        let replaced: [Entry] = [(alice.id, .posts, TokenBucket(tokens: 3, updatedAt: moment.addingTimeInterval(2)))]
        try await fixture.rateBuckets.save(replaced)
        #expect(sorted(try await fixture.rateBuckets.allBuckets()) == sorted(replaced + saved.suffix(2)))

        try await fixture.accounts.deleteAccount(bob.id, reservingNameUntil: Date())
        #expect(sorted(try await fixture.rateBuckets.allBuckets()) == sorted(replaced + saved.dropFirst().prefix(1)))
        try await fixture.rateBuckets.save([(bob.id, .follows, TokenBucket(tokens: 1, updatedAt: moment))])
        #expect(
            try await !fixture.rateBuckets.allBuckets().contains { $0.userID == bob.id },
            "nothing is stored for a deleted account")
    }
}
