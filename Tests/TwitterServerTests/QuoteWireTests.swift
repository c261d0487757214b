import Foundation
import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// A quote's three shapes of `quoted` (the tweet, `{id, unavailable: true}`, `{id}`), written by hand whole and
/// from cached parts, decode as the declared tweet, agree with its `Codable` form, and leave no reader's quoted
/// tweet in the cached parts.
struct QuoteWireTests {
    static let quotedTweet = Tweet(
        id: 1, author: .init(id: 2, username: "bob"), text: "the words", createdAt: Date(timeIntervalSince1970: 0),
        counts: TweetCounts(likes: 1, quotes: 3), likedByMe: true, quoteOfID: 9)

    static func quote(_ quoted: QuotedTweet?) -> Tweet {
        var quote = Tweet(
            id: 5, author: .init(id: 1, username: "alice"), text: "", createdAt: Date(timeIntervalSince1970: 60),
            quoteOfID: 1)
        quote.quoted = quoted
        return quote
    }

    static let shapes: [QuotedTweet?] = [.tweet(quotedTweet), .unavailable(id: 1), nil]

    @Test(arguments: shapes) func everyShapeDecodesAsWrittenWholeFromPartsAndByCodable(_ quoted: QuotedTweet?) throws {
        let quote = Self.quote(quoted)
        var whole: [UInt8] = []
        quote.writeJSON(into: &whole)
        var fromParts: [UInt8] = []
        TweetJSONCache().write(quote, into: &fromParts)
        let encoded = try JSONParser().parse(try ResultEncoder.encode(quote))
        #expect(try JSONParser().parse(whole) == encoded)
        #expect(try JSONParser().parse(fromParts) == encoded)
        let decoded = try JSONValueDecoder().decode(Tweet.self, from: try JSONParser().parse(whole))
        #expect(decoded == quote)
        #expect(decoded.quoteOfID == 1)
    }

    @Test func theShapesAreAsDocumented() throws {
        func quoted(_ shape: QuotedTweet?) throws -> JSONValue? {
            var bytes: [UInt8] = []
            Self.quote(shape).writeJSON(into: &bytes)
            return try JSONParser().parse(bytes)["quoted"]
        }
        #expect(try quoted(.unavailable(id: 1)) == ["id": 1, "unavailable": true])
        #expect(try quoted(nil) == ["id": 1], "not resolved for a reader: the id alone")
        #expect(try quoted(.tweet(Self.quotedTweet))?["quoted"] == ["id": 9], "one level deep")
        #expect(try quoted(.tweet(Self.quotedTweet))?["quotesCount"] == 3)
        var plain: [UInt8] = []
        Tweet(id: 3, author: .init(id: 1, username: "a"), text: "x", createdAt: Date()).writeJSON(into: &plain)
        #expect(try JSONParser().parse(plain)["quoted"] == .null)
    }

    @Test func cachedPartsHoldNoReadersQuotedTweet() {
        let parts = Self.quote(.tweet(Self.quotedTweet)).jsonParts()
        let kept = parts.head + parts.body + parts.middle + parts.counts + parts.tail
        #expect(!String(decoding: kept, as: UTF8.self).contains("the words"))
    }
}
