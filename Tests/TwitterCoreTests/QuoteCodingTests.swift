import Foundation
import Testing
import TwitterCore

/// A quote's facts survive the JSON other daemons read from the commit feed (`[CommitEvent]`): the quoted id, the
/// counts with `quotes`, and the counts of daemons from before quotes.
struct QuoteCodingTests {
    @Test func aPostedQuoteAndItsCountsComeBackFromTheCommitFeedsJSON() throws {
        let quote = Tweet(
            id: 5, author: .init(id: 1, username: "alice"), text: "", createdAt: Date(timeIntervalSince1970: 60),
            counts: TweetCounts(quotes: 2), quoteOfID: 3)
        let events: [CommitEvent] = [.tweet(.posted(quote)), .tweet(.counted(id: 3, TweetCounts(likes: 1, quotes: 4)))]
        let decoded = try JSONDecoder().decode([CommitEvent].self, from: try JSONEncoder().encode(events))
        #expect(decoded == events)
        guard case .tweet(.posted(let posted)) = decoded.first else {
            Issue.record("the posted tweet")
            return
        }
        #expect(posted.quoteOfID == 3 && posted.quoted == nil, "the id alone: the quoted tweet is read per reader")
    }

    @Test func countsFromBeforeQuotesDecodeWithNone() throws {
        let old = Data(#"{"likes":1,"reposts":2,"replies":3}"#.utf8)
        #expect(try JSONDecoder().decode(TweetCounts.self, from: old) == TweetCounts(likes: 1, reposts: 2, replies: 3))
    }
}
