import Foundation

/// One account's data as `account.export` hands it out, page by page: the profile first, then each list in
/// turn, oldest first, so an archive read while the account keeps posting still ends. On the wire, `next` is
/// `nextCursor` in its text form; a whole archive (`twctl export`) is the pages' lists joined, with no cursor.
public struct AccountArchivePage: Sendable, Codable {
    /// The profile; on the first page only.
    public var profile: Profile?
    /// The account's tweets, replies and reposts.
    public var tweets: [ArchivedTweet]
    /// Whom it follows.
    public var follows: [ArchivedRelation]
    /// The tweets it liked.
    public var likes: [ArchivedLike]
    /// Whom it mutes.
    public var mutes: [ArchivedRelation]
    /// Whom it blocks.
    public var blocks: [ArchivedRelation]
    /// The tweets it bookmarked.
    public var bookmarks: [ArchivedBookmark]
    /// The lists it owns, each with its members.
    public var lists: [ArchivedList] = []
    /// Its conversations with the messages it could read, texts opened, after every other list: each
    /// conversation and each message is one entry of a page, so a long conversation goes on over several pages,
    /// the next page starting with the same conversation again with the messages that follow.
    public var conversations: [ArchivedConversation] = []
    /// Where the next page starts; nil on the last.
    public var next: ArchiveCursor?

    /// An empty page.
    public init(profile: Profile? = nil) {
        self.profile = profile
        tweets = []
        follows = []
        likes = []
        mutes = []
        blocks = []
        bookmarks = []
    }

    /// How many list entries the page holds, conversations and their messages apart.
    public var count: Int {
        tweets.count + follows.count + likes.count + mutes.count + blocks.count + bookmarks.count + lists.count
    }

    /// Appends `page`'s lists to these, keeping the first profile and taking `page`'s cursor.
    public mutating func append(_ page: AccountArchivePage) {
        profile = profile ?? page.profile
        tweets += page.tweets
        follows += page.follows
        likes += page.likes
        mutes += page.mutes
        blocks += page.blocks
        bookmarks += page.bookmarks
        lists += page.lists
        var added = page.conversations[...]
        // A conversation cut by the end of a page goes on at the start of the next one.
        if let first = added.first, let last = conversations.indices.last, conversations[last].id == first.id {
            conversations[last].messages += first.messages
            added = added.dropFirst()
        }
        conversations += added
        next = page.next
    }

    enum CodingKeys: String, CodingKey {
        case profile, tweets, follows, likes, mutes, blocks, bookmarks, lists, conversations, nextCursor
    }

    /// Decodes a page; a `nextCursor` that is no cursor is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        profile = try container.decodeIfPresent(Profile.self, forKey: .profile)
        tweets = try container.decode([ArchivedTweet].self, forKey: .tweets)
        follows = try container.decode([ArchivedRelation].self, forKey: .follows)
        likes = try container.decode([ArchivedLike].self, forKey: .likes)
        mutes = try container.decode([ArchivedRelation].self, forKey: .mutes)
        blocks = try container.decode([ArchivedRelation].self, forKey: .blocks)
        // An archive written before bookmarks existed has none.
        bookmarks = try container.decodeIfPresent([ArchivedBookmark].self, forKey: .bookmarks) ?? []
        // Nor one written before lists.
        lists = try container.decodeIfPresent([ArchivedList].self, forKey: .lists) ?? []
        conversations = try container.decodeIfPresent([ArchivedConversation].self, forKey: .conversations) ?? []
        if let text = try container.decodeIfPresent(String.self, forKey: .nextCursor) {
            guard let cursor = ArchiveCursor(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .nextCursor, in: container, debugDescription: "not an archive cursor")
            }
            next = cursor
        }
    }

    /// Encodes every member; `profile` and `nextCursor` are null when absent, never left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile, forKey: .profile)
        try container.encode(tweets, forKey: .tweets)
        try container.encode(follows, forKey: .follows)
        try container.encode(likes, forKey: .likes)
        try container.encode(mutes, forKey: .mutes)
        try container.encode(blocks, forKey: .blocks)
        try container.encode(bookmarks, forKey: .bookmarks)
        try container.encode(lists, forKey: .lists)
        try container.encode(conversations, forKey: .conversations)
        try container.encode(next?.text, forKey: .nextCursor)
    }
}

/// One of the account's tweets in its archive: the tweet as stored, or a repost whose original the account may no
/// longer see (across a block), kept with the original marked unavailable and none of its text. On the wire it is
/// a tweet whose `repostOf` is then `{"id","unavailable":true}`.
@dynamicMemberLookup
public struct ArchivedTweet: Sendable, Hashable, Codable {
    /// The tweet; for an unavailable original, the repost without it.
    public var tweet: Tweet
    /// The id of the original the account may not see; nil otherwise.
    public var unavailableOriginalID: Int64?

    /// Creates the entry.
    public init(_ tweet: Tweet, unavailableOriginalID: Int64? = nil) {
        self.tweet = tweet
        self.unavailableOriginalID = unavailableOriginalID
    }

    /// The tweet's members.
    public subscript<Value>(dynamicMember member: KeyPath<Tweet, Value>) -> Value { tweet[keyPath: member] }

    /// The placeholder of an unavailable original.
    struct Unavailable: Codable {
        var id: Int64
        var unavailable: Bool
    }

    /// Decodes a tweet, or a repost whose `repostOf` is the placeholder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Tweet.CodingKeys.self)
        if let placeholder = try? container.decodeIfPresent(Unavailable.self, forKey: .repostOf),
            placeholder.unavailable
        {
            self.init(try Tweet(from: container, repostOf: nil), unavailableOriginalID: placeholder.id)
        } else {
            self.init(try Tweet(from: decoder))
        }
    }

    /// Encodes the tweet, its `repostOf` the placeholder when the original is unavailable.
    public func encode(to encoder: any Encoder) throws {
        guard let id = unavailableOriginalID else { return try tweet.encode(to: encoder) }
        var container = encoder.container(keyedBy: Tweet.CodingKeys.self)
        try tweet.encode(into: &container, repostOf: Unavailable(id: id, unavailable: true))
    }
}

// @MemberwiseInit
/// An account another one follows, mutes or blocks, and since when.
public struct ArchivedRelation: Sendable, Hashable, Codable {
    /// The other account.
    public var username: String
    /// Since when.
    public var createdAt: Date
}

/// A liked tweet, and when it was liked.
public typealias ArchivedLike = ArchivedTweetMark

/// A bookmarked tweet, and when it was bookmarked.
public typealias ArchivedBookmark = ArchivedTweetMark

// @MemberwiseInit
/// A tweet the account liked or bookmarked, and when.
public struct ArchivedTweetMark: Sendable, Hashable, Codable {
    /// The tweet.
    public var tweetId: Int64
    /// When it was liked or bookmarked.
    public var createdAt: Date
}

// @MemberwiseInit
/// A list the account owns, with its members: each list one entry of a page, its members (500 at most) with it.
public struct ArchivedList: Sendable, Hashable, Codable {
    /// The list's id.
    public var id: Int64
    /// Its name.
    public var name: String
    /// Its description.
    public var description: String
    /// Whether it is private.
    public var isPrivate: Bool
    /// When it was made.
    public var createdAt: Date
    /// Its members, oldest membership first, and since when.
    public var members: [ArchivedRelation]

    enum CodingKeys: String, CodingKey { case id, name, description, isPrivate = "private", createdAt, members }
}

/// Where an export goes on: a list, and the last row of it already handed out.
public struct ArchiveCursor: Sendable, Hashable {
    /// The lists of an archive, in the order they are handed out.
    public enum Section: String, Sendable, CaseIterable {
        case tweets, follows, likes, mutes, blocks, bookmarks, lists
        /// The account's conversations with their messages, last: `after` is a conversation's id, and
        /// `message`, when the page ended inside that conversation, the last of its messages handed out.
        case conversations

        /// The lists the account store reads (`AccountLifecycleStoring.archivePage`); the conversations are the
        /// message store's (`MessageStoring.archive`).
        public static let accountLists: [Section] = [.tweets, .follows, .likes, .mutes, .blocks, .bookmarks, .lists]
    }

    /// The list.
    public var section: Section
    /// The last row id handed out of it.
    public var after: Int64
    /// In `conversations` only: the last message handed out of conversation `after`, whose next messages come
    /// first; nil when that conversation was handed out whole.
    public var message: Int64?

    /// The start of an archive.
    public static let start = ArchiveCursor(section: .tweets, after: 0)

    /// The cursor after row `after` of `section` (and, in `conversations`, after `message` of that conversation).
    public init(section: Section, after: Int64, message: Int64? = nil) {
        self.section = section
        self.after = after
        self.message = section == .conversations ? message : nil
    }

    /// Reads the text form, `section.after`, or `conversations.after.message`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let section = Section(rawValue: String(parts[0])),
            let after = Int64(parts[1]), after >= 0
        else { return nil }
        var message: Int64?
        if parts.count == 3 {
            guard section == .conversations, let within = Int64(parts[2]), within >= 0 else { return nil }
            message = within
        }
        self.init(section: section, after: after, message: message)
    }

    /// The text form, `section.after`, or `conversations.after.message` inside a conversation.
    public var text: String {
        if let message { return "\(section.rawValue).\(after).\(message)" }
        return "\(section.rawValue).\(after)"
    }
}

/// Accounts from birth to deletion: the archive, deletion with its reserved name, and one-time password reset
/// codes.
public protocol AccountLifecycleStoring: Sendable {
    /// Up to `limit` list entries of `userID`'s archive from `cursor`; the profile when the cursor is the start.
    func archivePage(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws -> AccountArchivePage
    /// Deletes the account and everything it made, takes its likes, reposts and replies out of others'
    /// counters, and keeps its username from being taken again until `reservedUntil`.
    func deleteAccount(_ userID: Int64, reservingNameUntil reservedUntil: Date) async throws
    /// Keeps one reset code hash for `userID` (replacing an older one), valid until `expiresAt`.
    func storeResetCode(_ hash: [UInt8], for userID: Int64, expiresAt: Date) async throws
    /// Uses up the reset code `hash` of the account with e-mail `email`: returns the account when the code is
    /// its current one and not expired at `now`; the code is gone afterwards either way.
    func takeResetCode(_ hash: [UInt8], email: String, at now: Date) async throws -> Int64?
}

// @MemberwiseInit
/// One conversation in an account's archive, its messages' texts opened.
public struct ArchivedConversation: Sendable, Codable, Equatable {
    /// The conversation's id.
    public var id: Int64
    /// Its members' names.
    public var participants: [String]
    /// The messages the account could read, oldest first; on a page, those of this page.
    public var messages: [ArchivedMessage]
}

// @MemberwiseInit
/// One message in an archive; a deleted one has no text.
public struct ArchivedMessage: Sendable, Codable, Equatable {
    /// The message's id.
    public var id: Int64
    /// Who wrote it.
    public var sender: String
    /// Its text; nil once deleted.
    public var text: String?
    /// When it was sent.
    public var createdAt: Date
}
