import Foundation

/// A posted message, a reply, or a repost of another tweet.
public struct Tweet: Sendable, Hashable {
    /// Its id; ids grow with time, so ordering by id is ordering by posting.
    public var id: Int64
    /// Who posted it (for a repost, who reposted it).
    public var author: Author
    /// The text: trimmed, NFC, 1 to 140 characters; empty for a repost.
    public var text: String
    /// When it was posted.
    public var createdAt: Date
    /// The tweet this one answers; nil when it starts a conversation.
    public var inReplyToID: Int64?
    /// Likes, reposts and direct replies, as last committed.
    public var counts: TweetCounts
    /// The accounts it mentions, its hashtags and links.
    public var entities: TweetEntities
    /// Whether the reader has liked it. Stored and cached tweets say false; answers set it per reader.
    public var likedByMe: Bool
    /// Whether the reader has reposted it; like `likedByMe`, set per reader.
    public var repostedByMe: Bool
    /// Whether the reader has bookmarked it; like `likedByMe`, set per reader, and known to the reader alone.
    public var bookmarkedByMe: Bool
    /// The tweet this one quotes (an original, never a repost), as stored; nil when it quotes none.
    public var quoteOfID: Int64?
    /// What the reader is shown of the quoted tweet: nil until an answer resolves it for its reader (stored and
    /// cached tweets hold none, so nothing one reader may see is kept for another).
    public var quoted: QuotedTweet?
    /// Boxed: a struct cannot hold itself.
    private var original: Original?

    /// Creates a tweet.
    public init(
        id: Int64, author: Author, text: String, createdAt: Date, inReplyToID: Int64? = nil,
        counts: TweetCounts = TweetCounts(), repostOf: Tweet? = nil, likedByMe: Bool = false,
        repostedByMe: Bool = false, bookmarkedByMe: Bool = false, entities: TweetEntities = TweetEntities(),
        quoteOfID: Int64? = nil
    ) {
        self.quoteOfID = quoteOfID
        self.bookmarkedByMe = bookmarkedByMe
        self.entities = entities
        self.id = id
        self.author = author
        self.text = text
        self.createdAt = createdAt
        self.inReplyToID = inReplyToID
        self.counts = counts
        self.likedByMe = likedByMe
        self.repostedByMe = repostedByMe
        self.original = repostOf.map(Original.init)
    }

    /// The reposted tweet, for a repost.
    public var repostOf: Tweet? {
        get { original?.tweet }
        set { original = newValue.map(Original.init) }
    }

    /// The id of what this tweet shows: the original for a repost, itself otherwise.
    public var shownID: Int64 { original?.tweet.id ?? id }

    /// The public face of a tweet's author.
    public typealias Author = AccountName

    private final class Original: Sendable, Hashable {
        let tweet: Tweet

        init(_ tweet: Tweet) {
            self.tweet = tweet
        }

        static func == (lhs: Original, rhs: Original) -> Bool { lhs.tweet == rhs.tweet }
        func hash(into hasher: inout Hasher) { hasher.combine(tweet) }
    }
}

// @MemberwiseInit
/// How many likes, reposts, direct replies and quotes a tweet has.
public struct TweetCounts: Sendable, Hashable, Codable {
    /// Likes.
    public var likes: Int = 0
    /// Reposts.
    public var reposts: Int = 0
    /// Direct replies.
    public var replies: Int = 0
    /// Tweets quoting it.
    public var quotes: Int = 0

    enum CodingKeys: String, CodingKey { case likes, reposts, replies, quotes }

    /// Decodes counts; `quotes` is absent from the events of daemons from before quotes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            likes: try container.decode(Int.self, forKey: .likes),
            reposts: try container.decode(Int.self, forKey: .reposts),
            replies: try container.decode(Int.self, forKey: .replies),
            quotes: try container.decodeIfPresent(Int.self, forKey: .quotes) ?? 0)
    }
}

/// What a reader is shown of a quoted tweet: the tweet as the reader may see it, or its id alone.
public indirect enum QuotedTweet: Sendable, Hashable {
    /// The quoted tweet, with the reader's marks; its own `quoted` is not resolved (one level is shown).
    case tweet(Tweet)
    /// `{id, unavailable: true}`: deleted, its author suspended or deleted, or hidden from the reader (a block
    /// either way, a mute).
    case unavailable(id: Int64)

    /// The quoted tweet's id.
    public var id: Int64 {
        switch self {
        case .tweet(let tweet): tweet.id
        case .unavailable(let id): id
        }
    }
}

/// A tweet as the protocol writes it: the counts and the reader's marks flat beside the tweet's own members.
extension Tweet: Codable {
    enum CodingKeys: String, CodingKey {
        case id, author, text, createdAt, entities, inReplyToId, likesCount, repostsCount, repliesCount, repostOf,
            likedByMe
        case repostedByMe, bookmarkedByMe, quoted, quotesCount
    }

    enum QuotedKeys: String, CodingKey { case id, unavailable, author }

    /// Decodes a tweet answer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(from: container, repostOf: try container.decodeIfPresent(Tweet.self, forKey: .repostOf))
    }

    /// Decodes `quoted` in any of its three shapes: a tweet, `{id, unavailable: true}`, or `{id}` (not shown).
    static func decodeQuoted(from container: KeyedDecodingContainer<CodingKeys>) throws -> (Int64?, QuotedTweet?) {
        guard container.contains(.quoted), try !container.decodeNil(forKey: .quoted) else { return (nil, nil) }
        let quoted = try container.nestedContainer(keyedBy: QuotedKeys.self, forKey: .quoted)
        let id = try quoted.decode(Int64.self, forKey: .id)
        if quoted.contains(.author) { return (id, .tweet(try container.decode(Tweet.self, forKey: .quoted))) }
        if try quoted.decodeIfPresent(Bool.self, forKey: .unavailable) == true { return (id, .unavailable(id: id)) }
        return (id, nil)
    }

    /// Decodes a tweet's members but `repostOf`, which the caller read (an archive's may be a placeholder).
    init(from container: KeyedDecodingContainer<CodingKeys>, repostOf: Tweet?) throws {
        self.init(
            id: try container.decode(Int64.self, forKey: .id),
            author: try container.decode(Author.self, forKey: .author),
            text: try container.decode(String.self, forKey: .text),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            inReplyToID: try container.decodeIfPresent(Int64.self, forKey: .inReplyToId),
            counts: TweetCounts(
                likes: try container.decodeIfPresent(Int.self, forKey: .likesCount) ?? 0,
                reposts: try container.decodeIfPresent(Int.self, forKey: .repostsCount) ?? 0,
                replies: try container.decodeIfPresent(Int.self, forKey: .repliesCount) ?? 0,
                quotes: try container.decodeIfPresent(Int.self, forKey: .quotesCount) ?? 0),
            repostOf: repostOf,
            likedByMe: try container.decodeIfPresent(Bool.self, forKey: .likedByMe) ?? false,
            repostedByMe: try container.decodeIfPresent(Bool.self, forKey: .repostedByMe) ?? false,
            bookmarkedByMe: try container.decodeIfPresent(Bool.self, forKey: .bookmarkedByMe) ?? false,
            entities: try container.decodeIfPresent(TweetEntities.self, forKey: .entities) ?? TweetEntities()
        )
        (quoteOfID, quoted) = try Self.decodeQuoted(from: container)
    }

    /// Encodes every member; `inReplyToId` and `repostOf` are null when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encode(into: &container, repostOf: repostOf)
    }

    /// Encodes every member, with `repostOf` as given (an archive's may be a placeholder).
    func encode(into container: inout KeyedEncodingContainer<CodingKeys>, repostOf: some Encodable) throws {
        try container.encode(id, forKey: .id)
        try container.encode(author, forKey: .author)
        try container.encode(text, forKey: .text)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(entities, forKey: .entities)
        try container.encode(inReplyToID, forKey: .inReplyToId)
        try container.encode(counts.likes, forKey: .likesCount)
        try container.encode(counts.reposts, forKey: .repostsCount)
        try container.encode(counts.replies, forKey: .repliesCount)
        try container.encode(repostOf, forKey: .repostOf)
        try container.encode(likedByMe, forKey: .likedByMe)
        try container.encode(repostedByMe, forKey: .repostedByMe)
        try container.encode(bookmarkedByMe, forKey: .bookmarkedByMe)
        try container.encode(counts.quotes, forKey: .quotesCount)
        switch quoted {
        case .tweet(let tweet)?:
            try container.encode(tweet, forKey: .quoted)
        case .unavailable(let id)?:
            var nested = container.nestedContainer(keyedBy: QuotedKeys.self, forKey: .quoted)
            try nested.encode(id, forKey: .id)
            try nested.encode(true, forKey: .unavailable)
        case nil:
            if let quoteOfID {
                var nested = container.nestedContainer(keyedBy: QuotedKeys.self, forKey: .quoted)
                try nested.encode(quoteOfID, forKey: .id)
            } else {
                try container.encodeNil(forKey: .quoted)
            }
        }
    }
}
