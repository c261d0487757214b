import Foundation
import Testing
import TwitterCore
import TwitterRules

/// Quoting, as `PostRule` and `DeletionRule` decide it, on facts made up here.
struct QuoteRuleTests {
    static let alice = Tweet.Author(id: 1, username: "alice")
    static let bob = Tweet.Author(id: 2, username: "bob")
    static let carol = Tweet.Author(id: 3, username: "carol")

    static func plan(_ draft: PostDraft, _ facts: PostFacts) throws -> PostPlan {
        guard case .write(let plan) = try PostRule.decide(draft, found: EntityScanner.scan(draft.text), facts: facts)
        else { throw TwitterError.notFound("a plan") }
        return plan
    }

    @Test func aQuoteCountsOnTheOriginalAndNotifiesItsAuthorOnceBeforeTheMentioned() throws {
        // Quoting repost 9 quotes its original, 7: the store read the original into the facts.
        let draft = PostDraft(text: "@bob @carol look", by: Self.alice.id, quoteOfID: 9)
        let plan = try Self.plan(draft, PostFacts(mentioned: [Self.bob, Self.carol], quoted: (7, Self.bob)))
        #expect(plan.quoteOfID == 7)
        #expect(
            plan.notifications == [
                PlannedNotification(recipientID: Self.bob.id, kind: .quote),
                PlannedNotification(recipientID: Self.carol.id, kind: .mention),
            ], "bob hears of the quote, not also of his mention")
    }

    @Test func aQuoteMayBeEmptyAPlainPostMayNot() throws {
        let quote = PostDraft(text: "", by: Self.alice.id, quoteOfID: 7)
        #expect(try Self.plan(quote, PostFacts(quoted: (7, Self.bob))).quoteOfID == 7)
        #expect(throws: TwitterError.self) {
            try PostRule.decide(PostDraft(text: "", by: Self.alice.id), found: TweetEntities(), facts: PostFacts())
        }
    }

    @Test func quotingOnesOwnTweetNotifiesNobody() throws {
        let plan = try Self.plan(
            PostDraft(text: "me", by: Self.alice.id, quoteOfID: 7), PostFacts(quoted: (7, Self.alice)))
        #expect(plan.notifications.isEmpty)
        #expect(plan.quoteOfID == 7)
    }

    @Test(arguments: [Int64(1), 2])
    func quotingAcrossABlockEitherWayIsAsIfTheTweetWereMissing(blocker: Int64) throws {
        let draft = PostDraft(text: "no", by: Self.alice.id, quoteOfID: 7)
        let facts = PostFacts(blockedRecipients: [Self.bob.id], quoted: (7, Self.bob), quotedBlocker: blocker)
        #expect(throws: TwitterError.notFound("Tweet 7")) {
            try PostRule.decide(draft, found: TweetEntities(), facts: facts)
        }
    }

    @Test func quotingATweetNotThereIsNotFound() throws {
        let draft = PostDraft(text: "gone", by: Self.alice.id, quoteOfID: 7)
        #expect(throws: TwitterError.notFound("Tweet 7")) {
            try PostRule.decide(draft, found: TweetEntities(), facts: PostFacts())
        }
    }

    @Test func deletingAQuoteTakesItOutOfTheQuotedCountUnlessTheAuthorIsWithdrawn() {
        var facts = DeletionFacts(
            id: 10, authorID: 1, repostOf: nil, inReplyTo: nil, reposts: [], hasReplies: false, authorWithdrawn: false,
            quoteOf: 7)
        #expect(DeletionRule.plan(facts).counters.map(\.tweetID) == [7])
        #expect(DeletionRule.plan(facts).counters.map(\.counter) == [.quotes])
        facts.authorWithdrawn = true
        #expect(DeletionRule.plan(facts).counters.isEmpty)
    }
}
