import JSONRPC
import TwitterCore

/// The answer to tweets.fetch, `{"newestId","oldestId","tweets"}`, written once so it can be kept and sent
/// again as it is.
struct FeedPage: JSONWritable {
    /// The answer's JSON.
    let json: [UInt8]

    /// An answer kept from before.
    init(json: [UInt8]) {
        self.json = json
    }

    /// Writes the page of `tweets`, newest first, taking each tweet's JSON from `cache`.
    init(_ tweets: [Tweet], json cache: TweetJSONCache) {
        var json: [UInt8] = []
        JSONObjectWriter.write(into: &json) { page, json in
            page.integer("newestId", tweets.first?.id, into: &json)
            page.integer("oldestId", tweets.last?.id, into: &json)
            page.key("tweets", into: &json)
            cache.write(tweets, into: &json)
        }
        self.json = json
    }

    /// Writes the page of `tweets` as `init(_:json:)` does, and where each reader's mark is in it (`PageMarks`):
    /// nil when a tweet holds a quote, whose answer is never the kept bytes.
    static func kept(_ tweets: [Tweet], json cache: TweetJSONCache) -> (page: FeedPage, marks: PageMarks?) {
        var marks: PageMarks? = tweets.contains(where: \.holdsQuote) ? nil : PageMarks()
        var json: [UInt8] = []
        JSONObjectWriter.write(into: &json) { page, json in
            page.integer("newestId", tweets.first?.id, into: &json)
            page.integer("oldestId", tweets.last?.id, into: &json)
            page.key("tweets", into: &json)
            cache.write(tweets, into: &json, noting: &marks)
        }
        return (FeedPage(json: json), marks)
    }

    /// This page with `"pinnedTweet"` (`timeline.user`'s), the tweet or null, between `oldestId` and `tweets`
    /// where the sorted keys put it. The page's own bytes may be shared by every reader, so the pin, which is
    /// seen per reader, is written into a copy.
    func pinning(_ tweet: Tweet?, json cache: TweetJSONCache) -> FeedPage {
        // The page opens with `{"newestId":N,"oldestId":M,"tweets":`: integers or null before it, so the first
        // `,"tweets":` is the member's.
        let marker = Array(#","tweets":"#.utf8)
        guard let start = json.firstRange(of: marker)?.lowerBound else { return self }
        var bytes = Array(json[..<start])
        bytes += Array(#","pinnedTweet":"#.utf8)
        if let tweet { cache.write(tweet, into: &bytes) } else { bytes += Array("null".utf8) }
        bytes += json[start...]
        return FeedPage(json: bytes)
    }

    func writeJSON(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: json)
    }

    var writtenJSON: [UInt8]? { json }
}
