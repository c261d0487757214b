/// One place in a conversation: a tweet, or the mark a deleted tweet leaves so the conversation keeps its shape.
public enum ThreadEntry: Sendable, Hashable {
    /// A tweet that exists.
    case tweet(Tweet)
    /// A tweet that was deleted; what it answered is kept so the replies beneath it stay in place.
    case deleted(id: Int64, inReplyToID: Int64?)

    /// The entry's tweet id.
    public var id: Int64 {
        switch self {
        case .tweet(let tweet): tweet.id
        case .deleted(let id, _): id
        }
    }

    /// The id of the tweet it answers.
    public var inReplyToID: Int64? {
        switch self {
        case .tweet(let tweet): tweet.inReplyToID
        case .deleted(_, let parent): parent
        }
    }
}

// @MemberwiseInit
/// What a store reads for a thread: the tweet, the chain above it, and the replies beneath it in no order.
public struct ThreadRows: Sendable, Equatable {
    /// Root first, up to the tweet's parent.
    public var ancestors: [ThreadEntry]
    /// The tweet asked for.
    public var tweet: Tweet
    /// Replies beneath the tweet, at any depth, in any order: level by level, at most `levelReadLimit` of each
    /// level (the oldest first) and `readLimit` in all, so that a thread of any size is read in bounded time;
    /// past that the conversation is `truncated`.
    public var descendants: [ThreadEntry]

    /// The most replies a store reads of one level of a thread. More than `Conversation.descendantLimit`, so a
    /// thread cut here is always answered `truncated`.
    public static let levelReadLimit = 1_000
    /// The most replies a store reads of one thread, over every level.
    public static let readLimit = 10_000
    /// The most parent ids one query of a level names: far below SQLite's 32,766 host parameters even when a
    /// statement lists them twice.
    public static let parentBatch = 500

    /// How many replies a store reads next for a thread of at most `limit` descendants: at most
    /// `levelReadLimit` of a level and `readLimit` in all (each at least `limit` + 1, so a cut shows), given the
    /// `read` so far in the thread and `readOfLevel` so far in this level.
    public static func room(read: Int, readOfLevel: Int, limit: Int) -> Int {
        max(0, min(max(levelReadLimit, limit + 1) - readOfLevel, max(readLimit, limit + 1) - read))
    }
}

/// A conversation around one tweet, as `tweets.thread` answers it.
public struct Conversation: Sendable, Equatable {
    /// Root first.
    public var ancestors: [ThreadEntry]
    /// The tweet asked for.
    public var tweet: Tweet
    /// The replies beneath it in conversation order: depth first, each reply followed by its own replies,
    /// siblings oldest first.
    public var descendants: [ThreadEntry]
    /// True when there were more descendants than the limit.
    public var truncated: Bool

    /// At most this many descendants are answered.
    public static let descendantLimit = 200

    /// Orders `rows` into a conversation of at most `limit` descendants.
    public init(_ rows: ThreadRows, limit: Int = Conversation.descendantLimit) {
        ancestors = rows.ancestors
        tweet = rows.tweet
        var children: [Int64: [ThreadEntry]] = [:]
        for entry in rows.descendants {
            if let parent = entry.inReplyToID { children[parent, default: []].append(entry) }
        }
        var ordered: [ThreadEntry] = []
        // An explicit stack: a conversation thousands deep must not exhaust the thread's stack.
        var stack = (children[rows.tweet.id] ?? []).sorted { $0.id > $1.id }
        while let entry = stack.popLast() {
            ordered.append(entry)
            stack.append(contentsOf: (children[entry.id] ?? []).sorted { $0.id > $1.id })
        }
        truncated = ordered.count > limit
        descendants = Array(ordered.prefix(limit))
    }

}
