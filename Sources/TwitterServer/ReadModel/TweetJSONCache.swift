import JSONRPC
import Synchronization
import TwitterCore

/// The read model's second layer: the JSON of recently answered tweets, so the feed's hot pages are copied rather than formatted again on
/// every fetch: formatting twenty tweets (timestamps above all) was most of a fetch's time.
///
/// A tweet's JSON depends on nothing but the tweet, so an entry is used only for an equal tweet; a renamed
/// author or any other change simply misses and is formatted afresh.
final class TweetJSONCache: Sendable {
    private struct Entry {
        let tweet: Tweet
        let json: [UInt8]
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
            bytes.append(contentsOf: json(of: tweet))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private func json(of tweet: Tweet) -> [UInt8] {
        let slot = Int(truncatingIfNeeded: tweet.id) & mask
        if let entry = slots.withLock({ $0[slot] }), entry.tweet == tweet { return entry.json }
        var json: [UInt8] = []
        tweet.writeJSON(into: &json)
        slots.withLock { $0[slot] = Entry(tweet: tweet, json: json) }
        return json
    }
}
