import Foundation

/// One account's data as `account.export` hands it out, page by page: the profile first, then each list in
/// turn, oldest first, so an archive read while the account keeps posting still ends.
public struct AccountArchivePage: Sendable {
    /// The profile; on the first page only.
    public var profile: Profile?
    /// The account's tweets, replies and reposts.
    public var tweets: [Tweet]
    /// Whom it follows.
    public var follows: [ArchivedRelation]
    /// The tweets it liked.
    public var likes: [ArchivedLike]
    /// Whom it mutes.
    public var mutes: [ArchivedRelation]
    /// Whom it blocks.
    public var blocks: [ArchivedRelation]
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
    }

    /// How many list entries the page holds.
    public var count: Int { tweets.count + follows.count + likes.count + mutes.count + blocks.count }
}

/// An account another one follows, mutes or blocks, and since when.
public struct ArchivedRelation: Sendable, Hashable, Codable {
    /// The other account.
    public var username: String
    /// Since when.
    public var createdAt: Date

    /// Creates the value from its members.
    public init(username: String, createdAt: Date) {
        self.username = username
        self.createdAt = createdAt
    }
}

/// A liked tweet, and when it was liked.
public struct ArchivedLike: Sendable, Hashable, Codable {
    /// The tweet.
    public var tweetId: Int64
    /// When it was liked.
    public var createdAt: Date

    /// Creates the value from its members.
    public init(tweetId: Int64, createdAt: Date) {
        self.tweetId = tweetId
        self.createdAt = createdAt
    }
}

/// Where an export goes on: a list, and the last row of it already handed out.
public struct ArchiveCursor: Sendable, Hashable {
    /// The lists of an archive, in the order they are handed out.
    public enum Section: String, Sendable, CaseIterable {
        case tweets, follows, likes, mutes, blocks
    }

    /// The list.
    public var section: Section
    /// The last row id handed out of it.
    public var after: Int64

    /// Creates a cursor.
    public init(section: Section, after: Int64) {
        self.section = section
        self.after = after
    }

    /// The start of an archive.
    public static let start = ArchiveCursor(section: .tweets, after: 0)

    /// Reads the text form `section.after`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let section = Section(rawValue: String(parts[0])), let after = Int64(parts[1]),
            after >= 0
        else { return nil }
        self.init(section: section, after: after)
    }

    /// The text form, `section.after`.
    public var text: String { "\(section.rawValue).\(after)" }
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
