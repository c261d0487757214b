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

    func writeJSON(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: json)
    }
}
