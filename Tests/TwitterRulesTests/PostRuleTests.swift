import Foundation
import Testing
import TwitterCore
import TwitterRules

/// The decisions of posting, reposting and liking, on facts made up here: no store, no transaction.
struct PostRuleTests {
    static let alice = Tweet.Author(id: 1, username: "alice")
    static let bob = Tweet.Author(id: 2, username: "bob")
    static let carol = Tweet.Author(id: 3, username: "carol")

    static func tweet(_ id: Int64, by author: Tweet.Author) -> Tweet {
        Tweet(id: id, author: author, text: "hi", createdAt: Date(timeIntervalSince1970: 0))
    }

    static func plan(_ decision: PostRule.Decision) throws -> PostPlan {
        guard case .write(let plan) = decision else { throw TwitterError.notFound("a plan") }
        return plan
    }

    @Test func aReplyNotifiesTheAuthorAnsweredOnceAndEachOtherMentionOnce() throws {
        let draft = PostDraft(text: "@bob @carol @alice @bob yes", by: Self.alice.id, inReplyToID: 10)
        let facts = PostFacts(
            parent: (7, Self.bob), mentioned: [Self.bob, Self.carol, Self.alice])
        let plan = try Self.plan(try PostRule.decide(draft, found: EntityScanner.scan(draft.text), facts: facts))
        #expect(plan.inReplyToID == 7, "a reply to a repost answers its original")
        #expect(plan.countedParentID == 7)
        #expect(
            plan.notifications == [
                PlannedNotification(recipientID: Self.bob.id, kind: .reply),
                PlannedNotification(recipientID: Self.carol.id, kind: .mention),
            ], "bob hears of the reply, not also of his mention; alice not of her own")
        #expect(plan.mentionedIDs == [2, 3, 1])
    }

    @Test func nobodyAcrossABlockHearsOfAPostAndAReplyToATweetNotThereIsNotFound() throws {
        let mention = PostDraft(text: "@bob @carol", by: Self.alice.id)
        let facts = PostFacts(mentioned: [Self.bob, Self.carol], blockedRecipients: [Self.carol.id])
        let plan = try Self.plan(try PostRule.decide(mention, found: EntityScanner.scan(mention.text), facts: facts))
        #expect(plan.notifications.map(\.recipientID) == [Self.bob.id])

        let reply = PostDraft(text: "no", by: Self.alice.id, inReplyToID: 7)
        #expect(throws: TwitterError.notFound("Tweet 7")) {
            try PostRule.decide(reply, found: TweetEntities(), facts: PostFacts())
        }
    }

    @Test func theSameKeyWithinTheWindowAnswersTheEarlierTweetAndWritesNothing() throws {
        let draft = PostDraft(text: "once", by: Self.alice.id, idempotencyKey: "k")
        let earlier = Self.tweet(5, by: Self.alice)
        guard
            case .earlier(let answered) = try PostRule.decide(
                draft, found: TweetEntities(), facts: PostFacts(earlier: earlier))
        else {
            Issue.record("wrote again")
            return
        }
        #expect(answered == earlier)
        #expect(
            try Self.plan(try PostRule.decide(draft, found: TweetEntities(), facts: PostFacts())).releasesIdempotencyKey
        )
    }

    @Test func aPostsEventsComeInTheOneOrder() {
        let reply = Tweet(
            id: 11, author: Self.alice, text: "@carol yes", createdAt: Date(timeIntervalSince1970: 0), inReplyToID: 7)
        let notification = ActivityNotification(
            id: 3, type: .reply, createdAt: Date(timeIntervalSince1970: 0), from: .init(id: 1, username: "alice"),
            tweet: reply)
        let events = PostRule.events(
            posted: reply, parentCounts: TweetCounts(replies: 1), notifications: [(notification, Self.bob.id)])
        #expect(
            events == [
                .tweet(.posted(reply)), .tweet(.counted(id: 7, TweetCounts(replies: 1))),
                .account(.notified(notification, recipientID: Self.bob.id)),
            ])
    }

    @Test func aRepostIsMadeOnceAndTellsOnlyAnother() throws {
        let facts = RepostFacts(original: (7, Self.bob))
        #expect(
            try RepostRule.decide(9, by: Self.alice.id, facts: facts)
                == .write(originalID: 7, notification: PlannedNotification(recipientID: Self.bob.id, kind: .repost)))
        #expect(try RepostRule.decide(7, by: Self.bob.id, facts: facts) == .write(originalID: 7, notification: nil))
        let existing = Self.tweet(12, by: Self.alice)
        #expect(
            try RepostRule.decide(7, by: Self.alice.id, facts: RepostFacts(original: (7, Self.bob), existing: existing))
                == .existing(existing))
        #expect(throws: TwitterError.notFound("Tweet 7")) {
            try RepostRule.decide(7, by: Self.alice.id, facts: RepostFacts(original: nil))
        }
    }

    @Test func aLikeTellsTheAuthorAndAnUnlikeWithdrawsTheNotification() throws {
        let target = (id: Int64(7), author: Self.bob)
        let like = try LikeRule.decide(9, by: Self.alice.id, liking: true, target: target)
        #expect(like.tweetID == 7)
        #expect(like.notification == PlannedNotification(recipientID: Self.bob.id, kind: .like))
        #expect(try LikeRule.decide(7, by: Self.bob.id, liking: true, target: target).notification == nil)
        #expect(throws: TwitterError.notFound("Tweet 7")) {
            try LikeRule.decide(7, by: Self.alice.id, liking: true, target: nil)
        }
        let unlike = try LikeRule.decide(7, by: Self.alice.id, liking: false, target: target)
        #expect(unlike.withdrawsFrom == Self.bob.id)
        #expect(
            LikeRule.events(unlike, by: Self.alice.id, liking: false, counts: TweetCounts(), notification: nil)
                == [.tweet(.unliked(id: 7, userID: Self.alice.id)), .tweet(.counted(id: 7, TweetCounts()))])
    }
}
