import JSONRPC
import Synchronization
import TwitterCore

/// The read model's second layer: the JSON of recently answered tweets, less the reader's marks and a repost's
/// original (`Tweet.JSONParts`), so the hot pages are copied rather than formatted again on every read:
/// formatting twenty tweets (timestamps above all) was most of a fetch's time.
///
/// The parts depend on nothing but the tweet, so an entry is used only for a tweet with the same parts; a
/// renamed author, a new count or any other change simply misses and is formatted afresh.
final class TweetJSONCache: Sendable {
    /// A slot holds a reference, not the entry: 16,384 empty slots are 128 KB, where slots of the entry itself
    /// (about 200 bytes) were 3.4 MB written at start, resident in a daemon that had answered nothing.
    private final class Entry: Sendable {
        let tweet: Tweet
        let parts: Tweet.JSONParts

        init(tweet: Tweet, parts: Tweet.JSONParts) {
            self.tweet = tweet
            self.parts = parts
        }
    }

    /// Direct-mapped by id: the newest tweets have consecutive ids, so they never evict one another.
    private let slots: Mutex<[Entry?]>
    private let mask: Int

    /// Creates a cache of `capacity` entries, rounded up to a power of two.
    init(capacity: Int = 1024) {
        var size = 1
        while size < capacity { size *= 2 }
        slots = Mutex(Array(repeating: nil, count: size))
        mask = size - 1
    }

    /// Appends `tweets` as a JSON array.
    func write(_ tweets: [Tweet], into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, tweet) in tweets.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(tweet, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `tweets` as a JSON array, noting where their marks are written in `marks` (`PageMarks`).
    func write(_ tweets: [Tweet], into bytes: inout [UInt8], noting marks: inout PageMarks?) {
        bytes.append(UInt8(ascii: "["))
        for (index, tweet) in tweets.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(tweet, into: &bytes, noting: &marks)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends one tweet from its cached parts, a repost's original the same way, with the reader's marks.
    func write(_ tweet: Tweet, into bytes: inout [UInt8]) {
        tweet.write(parts(of: tweet), into: &bytes) { original, bytes in write(original, into: &bytes) }
    }

    /// `write(_:into:)`, noting where the marks are written in `marks`.
    private func write(_ tweet: Tweet, into bytes: inout [UInt8], noting marks: inout PageMarks?) {
        tweet.write(parts(of: tweet), into: &bytes, noting: &marks) { original, bytes, marks in
            write(original, into: &bytes, noting: &marks)
        }
    }

    private func parts(of tweet: Tweet) -> Tweet.JSONParts {
        let slot = Int(truncatingIfNeeded: tweet.id) & mask
        if let entry = slots.withLock({ $0[slot] }), entry.tweet.hasSameParts(as: tweet) { return entry.parts }
        let parts = tweet.jsonParts()
        slots.withLock { $0[slot] = Entry(tweet: tweet, parts: parts) }
        return parts
    }
}
