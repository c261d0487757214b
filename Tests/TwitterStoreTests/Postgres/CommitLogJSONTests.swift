import Foundation
import Testing
import TwitterCore

@testable import TwitterPostgres

/// The commit log's hand-written JSON (`CommitLogJSON`, the fast path) against `JSONEncoder` (the slow one):
/// other daemons read entries with `JSONDecoder`, so both must decode to the same events.
struct CommitLogJSONTests {
    static let author = Tweet.Author(id: 7, username: "ann")

    /// Tweets as a group commit posts them, with every field that can vary, and texts that need escaping.
    static var tweets: [Tweet] {
        let original = Tweet(
            id: 1, author: author, text: "plain", createdAt: Date(timeIntervalSinceReferenceDate: 786_000_000.123))
        var quoted = Tweet(
            id: 5, author: Tweet.Author(id: 8, username: "bo"), text: "quoting #Swift @ann https://swift.org",
            createdAt: Date(timeIntervalSince1970: 1_764_110_000.5), inReplyToID: 1,
            counts: TweetCounts(likes: 3, reposts: 2, replies: 1, quotes: 4),
            entities: TweetEntities(
                mentions: [.init(username: "ann", start: 17, end: 21)],
                hashtags: [.init(tag: "Swift", start: 10, end: 16)],
                urls: [.init(url: "https://swift.org", start: 22, end: 39)]),
            quoteOfID: 1)
        var unavailable = quoted
        unavailable.id = 6
        unavailable.quoted = .unavailable(id: 1)
        var shown = quoted
        shown.id = 9
        shown.quoted = .tweet(original)
        quoted.likedByMe = true
        return [
            original,
            Tweet(
                id: 2, author: author, text: "quote \" backslash \\ newline \n tab \t bell \u{07} é 🚀 👩‍💻",
                createdAt: Date(timeIntervalSinceReferenceDate: 786_000_001.987_654_321)),
            Tweet(
                id: 3, author: author, text: "", createdAt: Date(timeIntervalSinceReferenceDate: 0), repostOf: original),
            quoted, unavailable, shown,
        ]
    }

    static var events: [CommitEvent] {
        tweets.map { .tweet(.posted($0)) } + [
            .tweet(.counted(id: 1, TweetCounts(likes: 1, reposts: 2, replies: 3, quotes: 4))),
            .relation(.followed(followerID: 7, followeeID: 8)),
            .account(.revoked(.token(id: 4, userID: 7, reason: .loggedOut))),
            .tweet(.deleted(id: 2, authorID: 7, repostOf: nil)),
        ]
    }

    @Test func theFastJSONDecodesToTheSameEventsAsJSONEncoders() throws {
        let events = Self.events
        let fast = try CommitLogJSON.encode(events)
        let slow = try JSONEncoder().encode(events)
        let fromFast = try JSONDecoder().decode([CommitEvent].self, from: Data(fast.utf8))
        let fromSlow = try JSONDecoder().decode([CommitEvent].self, from: slow)
        #expect(fromFast == fromSlow)
        // The tweets a store posts (no `quoted` resolved) come back as they were.
        #expect(Array(fromFast.prefix(4)) == Array(events.prefix(4)))
        // And it is JSON a generic parser accepts as the same document.
        let fastObject = try JSONSerialization.jsonObject(with: Data(fast.utf8)) as? NSArray
        let slowObject = try JSONSerialization.jsonObject(with: slow) as? NSArray
        #expect(fastObject == slowObject)
    }

    @Test func eachEventAloneAgreesToo() throws {
        for event in Self.events {
            let fast = try JSONDecoder().decode([CommitEvent].self, from: Data(try CommitLogJSON.encode([event]).utf8))
            let slow = try JSONDecoder().decode([CommitEvent].self, from: try JSONEncoder().encode([event]))
            #expect(fast == slow, "\(event)")
        }
        #expect(try CommitLogJSON.encode([]) == "[]")
    }
}
