import Foundation
import JSONRPC
import Testing
import TwitterCore

@testable import TwitterServer

/// The fetch answers cached (`TweetJSONCache`, `FeedPageCache`) must be exactly what formatting afresh gives,
/// and never outlive the feed version they were read at.
struct FeedPageAndJSONCacheTests {
    static func tweet(_ id: Int64, author: String = "alice", text: String = "hello") -> Tweet {
        Tweet(
            id: id, author: Tweet.Author(id: 7, username: author), text: text,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(id)))
    }

    static func formatted(_ tweets: [Tweet]) -> [UInt8] {
        var bytes: [UInt8] = []
        tweets.writeJSON(into: &bytes)
        return bytes
    }

    @Test func cachedTweetJSONIsWhatFormattingGives() {
        let cache = TweetJSONCache(capacity: 4)
        let tweets = (1...10).map { Self.tweet($0) }
        var first: [UInt8] = []
        cache.write(tweets, into: &first)
        var second: [UInt8] = []
        cache.write(tweets, into: &second)
        #expect(first == Self.formatted(tweets))
        #expect(second == first)
    }

    @Test func cachedHeadsWithRepostsAndMarksAreWhatFormattingGives() throws {
        let cache = TweetJSONCache(capacity: 4)
        var original = Self.tweet(1, text: "@bob 👩‍👩‍👧 #Tåg https://example.org/a?b=\"c\"")
        original.entities = TweetEntities(of: original.text, mentioned: ["bob"])
        #expect(original.entities.mentions.count == 1 && original.entities.hashtags.count == 1)
        original.counts = TweetCounts(likes: 3, reposts: 1, replies: 2)
        let repost = Tweet(
            id: 9, author: Tweet.Author(id: 8, username: "bob"), text: "", createdAt: original.createdAt,
            repostOf: original)
        let marks = ReaderMarks(liked: [1], reposted: [1])
        for tweets in [[original, repost], [repost, original].map(marks.applied)] {
            var cached: [UInt8] = []
            cache.write(tweets, into: &cached)
            var again: [UInt8] = []
            cache.write(tweets, into: &again)
            #expect(cached == Self.formatted(tweets))
            #expect(again == cached)
            let decoded = try JSONValueDecoder().decode([Tweet].self, from: try JSONParser().parse(cached))
            #expect(decoded == tweets, "the hand-written JSON decodes to the same tweets")
            #expect(
                cached == (try ResultEncoder.encode(tweets)),
                "and is byte for byte what the encoder writes, keys sorted")
        }
    }

    @Test func aChangedTweetIsFormattedAfresh() {
        let cache = TweetJSONCache()
        var before: [UInt8] = []
        cache.write([Self.tweet(1)], into: &before)
        let renamed = Self.tweet(1, author: "alice2")
        var after: [UInt8] = []
        cache.write([renamed], into: &after)
        #expect(after == Self.formatted([renamed]))
        #expect(after != before)
    }

    static func page(_ json: [UInt8]) -> FeedPageCache.Page {
        FeedPageCache.Page(tweets: [], unmarkedJSON: json)
    }

    @Test func keptPagesAreForTheirVersionOnly() {
        let cache = FeedPageCache()
        let newest = TweetQuery(limit: 20)
        cache.keep(Self.page([1, 2, 3]), for: newest, at: 5)
        #expect(cache.page(for: newest, at: 5)?.unmarkedJSON == [1, 2, 3])
        #expect(cache.page(for: TweetQuery(limit: 10), at: 5) == nil)
        #expect(cache.page(for: newest, at: 6) == nil)
        // An answer read at an older version never replaces the newer ones.
        cache.keep(Self.page([9]), for: TweetQuery(limit: 10), at: 4)
        #expect(cache.page(for: TweetQuery(limit: 10), at: 5) == nil)
        cache.keep(Self.page([4]), for: newest, at: 6)
        #expect(cache.page(for: newest, at: 5) == nil)
        #expect(cache.page(for: newest, at: 6)?.unmarkedJSON == [4])
    }

    @Test func oddQueriesCannotGrowTheCacheWithoutBound() {
        let cache = FeedPageCache()
        for sinceID in 0..<Int64(cache.capacity * 2) {
            cache.keep(Self.page([1]), for: TweetQuery(sinceID: sinceID), at: 1)
        }
        let kept = (0..<Int64(cache.capacity * 2)).filter {
            cache.page(for: TweetQuery(sinceID: $0), at: 1) != nil
        }
        #expect(kept.count == cache.capacity)
    }
}
