// @MemberwiseInit
/// What a tweet's text points at: the accounts it mentions, its hashtags and its links, each with where it
/// stands in the text, counted in Unicode scalars of the stored text, `end` exclusive.
public struct TweetEntities: Sendable, Hashable, Codable {
    // @MemberwiseInit
    /// `@username`, for an account that existed when the tweet was posted.
    public struct Mention: Sendable, Hashable, Codable {
        /// The account's username as the account spells it.
        public var username: String
        /// The offset of the `@`.
        public var start: Int
        /// The offset just past the name.
        public var end: Int
    }

    // @MemberwiseInit
    /// `#tag`.
    public struct Hashtag: Sendable, Hashable, Codable {
        /// The tag as written, without the `#`.
        public var tag: String
        /// The offset of the `#`.
        public var start: Int
        /// The offset just past the tag.
        public var end: Int
    }

    // @MemberwiseInit
    /// An `http://` or `https://` link.
    public struct Link: Sendable, Hashable, Codable {
        /// The link as written.
        public var url: String
        /// The offset of its first character.
        public var start: Int
        /// The offset just past it.
        public var end: Int
    }

    /// The mentions, in text order.
    public var mentions: [Mention] = []
    /// The hashtags, in text order.
    public var hashtags: [Hashtag] = []
    /// The links, in text order.
    public var urls: [Link] = []

    /// No entities at all: a repost, or plain text.
    public var isEmpty: Bool { mentions.isEmpty && hashtags.isEmpty && urls.isEmpty }

    /// The entities of `text`, keeping the mentions of the accounts in `mentioned` (their usernames as the
    /// accounts spell them): what was found when the tweet was posted, found again the same way.
    public init(of text: String, mentioned: [String]) {
        self.init(found: EntityScanner.scan(text), mentioned: mentioned)
    }

    /// What `EntityScanner.scan` `found`, keeping the mentions of the accounts in `mentioned`: for a writer
    /// that scanned the text already.
    public init(found: TweetEntities, mentioned: [String]) {
        var accounts: [String: String] = [:]
        for username in mentioned { accounts[EntityScanner.usernameKey(username)] = username }
        self.init(
            mentions: accounts.isEmpty
                ? []
                : found.mentions.compactMap { candidate in
                    accounts[EntityScanner.usernameKey(candidate.username)].map {
                        Mention(username: $0, start: candidate.start, end: candidate.end)
                    }
                },
            hashtags: found.hashtags, urls: found.urls)
    }
}
