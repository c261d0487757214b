import Foundation
import Testing
import TwitterCore

struct TweetStoreTests {
    @Test(arguments: StoreBackend.all) func concurrentPostsShareTransactionsAndAllArrive(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
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
        let fetched = try await fixture.tweets.tweets(TweetQuery(limit: 200))
        #expect(fetched.map(\.id) == ids.sorted(by: >))
        // Reported after commit, in id order.
        let reported = fixture.commits.events.compactMap { event -> Int64? in
            if case .tweet(.posted(let tweet)) = event { tweet.id } else { nil }
        }
        #expect(reported == ids.sorted())
    }

    @Test(arguments: StoreBackend.all) func idempotencyKeyReturnsTheFirstTweetForTheSameUserOnly(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let first = try await fixture.tweets.postTweet(text: "once", idempotencyKey: "k1", by: alice.id)
        let again = try await fixture.tweets.postTweet(text: "once more", idempotencyKey: "k1", by: alice.id)
        #expect(again.id == first.id)
        #expect(again.text == "once")
        let bobs = try await fixture.tweets.postTweet(text: "mine", idempotencyKey: "k1", by: bob.id)
        #expect(bobs.id != first.id)
        #expect(try await fixture.tweets.tweets(TweetQuery()).count == 2)
    }

    @Test(arguments: StoreBackend.all) func concurrentPostsWithOneKeyMakeOneTweet(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        _ = try await fixture.user("bob")
        // Posted at once, so that batches hold keyed posts between others: every keyed one answers with the first.
        let posted = try await withThrowingTaskGroup(of: (keyed: Bool, id: Int64).self) { group in
            for index in 0..<60 {
                group.addTask {
                    let key: String? = index % 3 == 0 ? "same" : nil
                    let tweet = try await fixture.tweets.postTweet(
                        text: "post \(index) @bob #tag", idempotencyKey: key, by: alice.id)
                    #expect(tweet.entities.mentions.map(\.username) == ["bob"])
                    return (key != nil, tweet.id)
                }
            }
            var posted: [(keyed: Bool, id: Int64)] = []
            for try await post in group { posted.append(post) }
            return posted
        }
        #expect(Set(posted.filter(\.keyed).map(\.id)).count == 1)
        #expect(Set(posted.map(\.id)).count == 41)
        #expect(try await fixture.tweets.tweets(TweetQuery(limit: 100)).count == 41)
    }

    /// A client that pipelines a post and a reply to it (or a quote of it) knows the id the post will get; both
    /// may land in one group commit. Before, PostgreSQL's batch read the reply's target before the staged post
    /// was written and refused the reply as answering a missing tweet; SQLite wrote them one by one.
    @Test(arguments: StoreBackend.all) func aReplyAndAQuotePipelinedBehindTheTweetTheyAnswerFindIt(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let first = try await fixture.tweets.postTweet(text: "first", idempotencyKey: nil, by: alice.id)
        let next = first.id + 1
        // Queued one after another without waiting, as a connection's pipelined posts are.
        let post = fixture.tweets.queued(PostDraft(text: "second", by: alice.id))
        let reply = fixture.tweets.queued(PostDraft(text: "answering the second", by: alice.id, inReplyToID: next))
        let quote = fixture.tweets.queued(PostDraft(text: "quoting the second", by: alice.id, quoteOfID: next))
        let second = try await post.value
        #expect(second.id == next)
        #expect(try await reply.value.inReplyToID == next)
        #expect(try await quote.value.quoteOfID == next)
        #expect(try await fixture.tweets.tweet(id: next)?.counts.replies == 1)
    }

    /// The store's half of the server's rule of order (`sharesCommits` on `tweets.post` and `tweets.repost`): a post
    /// or a repost takes its place in the commit order before it first suspends, so writes started one after
    /// another, each in a task that starts on the spot, take their ids in that order.
    @Test(arguments: StoreBackend.all) func postsAndRepostsTakeTheirPlaceInTheCommitOrderBeforeTheyWait(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let first = try await fixture.post("first", by: alice)
        let before = fixture.tweets.queued(PostDraft(text: "before", by: alice.id))
        let repost = Task.immediate { try await fixture.tweets.repost(first.id, by: bob.id) }
        let after = fixture.tweets.queued(PostDraft(text: "after", by: alice.id))
        let ids = [try await before.value.id, try await repost.value.id, try await after.value.id]
        #expect(ids == ids.sorted() && Set(ids).count == 3, "\(ids)")
    }

    /// A batch reads its authors' names by key when it has one author (a lone post), as a list when several
    /// (`PostRowsTests` runs both for certain): every tweet names its own author, alone or pipelined with others'.
    @Test(arguments: StoreBackend.all) func everyPostNamesItsAuthorAloneOrAmongOthersInItsBatch(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let authors = [
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol"),
        ]
        let alone = try await fixture.post("alone", by: authors[1])
        #expect(alone.author.username == "bob")
        // Queued back to back: how they fall into batches is the committer's.
        let queued = (0..<60).map { index in
            let author = authors[index % 3]
            return (author.username, fixture.tweets.queued(PostDraft(text: "post \(index)", by: author.id)))
        }
        for (username, post) in queued {
            #expect(try await post.value.author.username == username)
        }
        let fetched = try await fixture.tweets.tweets(TweetQuery(limit: 100))
        #expect(fetched.count == 61)
        for tweet in fetched {
            #expect(tweet.author.username == authors.first { $0.id == tweet.author.id }?.username)
        }
    }

    @Test(arguments: StoreBackend.all) func onlyTheAuthorMayDelete(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
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
        #expect(
            fixture.commits.events.last == .tweet(.deleted(id: tweet.id, authorID: alice.id, repostOf: nil)),
            "the deletion is reported")
    }

    @Test(arguments: StoreBackend.all) func fetchFiltersBySinceMaxAndAuthor(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        var ids: [Int64] = []
        for index in 0..<10 {
            let author = index.isMultiple(of: 2) ? alice.id : bob.id
            ids.append(try await fixture.tweets.postTweet(text: "t\(index)", idempotencyKey: nil, by: author).id)
        }
        let newer = try await fixture.tweets.tweets(TweetQuery(sinceID: ids[6]))
        #expect(newer.map(\.id) == [ids[9], ids[8], ids[7]])
        let older = try await fixture.tweets.tweets(TweetQuery(maxID: ids[3], limit: 2))
        #expect(older.map(\.id) == [ids[2], ids[1]])
        let alices = try await fixture.tweets.tweets(TweetQuery(.author(alice.id)))
        #expect(alices.allSatisfy { $0.author.username == "alice" })
        #expect(alices.count == 5)
        let catchUp = try await fixture.tweets.tweets(after: ids[7], in: .everyone, limit: 10)
        #expect(catchUp.map(\.id) == [ids[8], ids[9]])
    }
}
