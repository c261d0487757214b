import Testing
import TwitterCore
import TwitterRules

/// Deleting a tweet: who may, where it keeps its place, which counters lose it, in what order it is reported.
struct DeletionRuleTests {
    static func facts(
        repostOf: Int64? = nil, inReplyTo: Int64? = nil, hasReplies: Bool = false, withdrawn: Bool = false
    ) -> DeletionFacts {
        DeletionFacts(
            id: 10, authorID: 1, repostOf: repostOf, inReplyTo: inReplyTo, reposts: [(11, 2), (12, 3)],
            hasReplies: hasReplies, authorWithdrawn: withdrawn)
    }

    @Test func onlyTheAuthorDeletes() throws {
        try DeletionRule.requireAuthor(1, of: (10, 1))
        #expect(throws: TwitterError(.forbidden, "Tweet 10 is not yours to delete")) {
            try DeletionRule.requireAuthor(2, of: (10, 1))
        }
    }

    @Test func aTweetInAConversationKeepsItsPlaceAndARepostNever() {
        #expect(DeletionRule.plan(Self.facts()).tombstone == nil, "alone: no place to keep")
        #expect(DeletionRule.plan(Self.facts(hasReplies: true)).tombstone?.inReplyToID == nil)
        #expect(DeletionRule.plan(Self.facts(inReplyTo: 7)).tombstone?.inReplyToID == 7)
        #expect(DeletionRule.plan(Self.facts(repostOf: 7, hasReplies: true)).tombstone == nil)
        #expect(!DeletionRule.mayKeepItsPlace(repostOf: 7))
    }

    @Test func theCountersLoseItUnlessASuspensionTookItOutAlready() {
        let reply = DeletionRule.plan(Self.facts(inReplyTo: 7))
        #expect(reply.counters.map(\.tweetID) == [7] && reply.counters.map(\.counter) == [.replies])
        let repost = DeletionRule.plan(Self.facts(repostOf: 8))
        #expect(repost.counters.map(\.counter) == [.reposts])
        #expect(DeletionRule.plan(Self.facts(inReplyTo: 7, withdrawn: true)).counters.isEmpty)
    }

    @Test func itsRepostsGoFirstThenItThenTheCounts() {
        let events = DeletionRule.events(Self.facts(inReplyTo: 7), counted: [(7, TweetCounts(replies: 2))])
        #expect(
            events == [
                .tweet(.deleted(id: 11, authorID: 2, repostOf: 10)),
                .tweet(.deleted(id: 12, authorID: 3, repostOf: 10)),
                .tweet(.deleted(id: 10, authorID: 1, repostOf: nil)), .tweet(.counted(id: 7, TweetCounts(replies: 2))),
            ])
    }
}
