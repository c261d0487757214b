import JSONRPC
import TwitterCore

/// Tweets are the bulk of every feed answer, so they write their own JSON (keys in sorted order).
extension Tweet: JSONWritable {
    /// `{"author":{"id","username"},"createdAt","id","text"}`.
    public func writeJSON(into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { tweet, bytes in
            tweet.key("author", into: &bytes)
            JSONObjectWriter.write(into: &bytes) { author, bytes in
                author.integer("id", self.author.id, into: &bytes)
                author.string("username", self.author.username, into: &bytes)
            }
            tweet.timestamp("createdAt", createdAt, into: &bytes)
            tweet.integer("id", id, into: &bytes)
            tweet.string("text", text, into: &bytes)
        }
    }
}
