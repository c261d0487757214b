import JSONRPC
import TwitterCore

/// A page of tweets read by cursor (`bookmarks.list`, `tweets.quotes`), `{"nextCursor","tweets"}`: each tweet with the reader's
/// marks applied, written through the read model's `TweetJSONCache` like every page of tweets.
struct TweetListAnswer: JSONWritable {
    let tweets: [Tweet]
    let nextCursor: Int64?
    let json: TweetJSONCache

    func writeJSON(into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { answer, bytes in
            answer.key("nextCursor", into: &bytes)
            if let nextCursor {
                JSONValue.writeString(String(nextCursor), into: &bytes)
            } else {
                bytes.append(contentsOf: Array("null".utf8))
            }
            answer.key("tweets", into: &bytes)
            json.write(tweets, into: &bytes)
        }
    }
}
