import Foundation

// @MemberwiseInit
/// Something another account did that concerns you. Never made for your own actions; withdrawn when the
/// action is undone (an unlike, an unfollow, an unrepost, the reply, quote or mentioning tweet deleted).
public struct ActivityNotification: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A tweet mentioned you.
        case mention
        /// A tweet answered yours.
        case reply
        /// An account began to follow you.
        case follow
        /// An account liked your tweet.
        case like
        /// An account reposted your tweet.
        case repost
        /// An account quoted your tweet (`tweet` is the quote).
        case quote
        /// For admins: a user filed a report (`reportId`), about `tweet` when it names one.
        case adminReport = "admin.report"

        /// Whether the recipient's mutes and blocks hide it with its actor: every kind but a report, which
        /// reaches the admins whoever filed it.
        public var isHiddenWithItsActor: Bool { self != .adminReport }
    }

    // @MemberwiseInit
    /// Who did it.
    public struct Actor: Sendable, Hashable, Codable {
        /// Their account id: the daemon's, to leave out hidden accounts; not on the wire, where it is 0.
        public var id: Int64 = 0
        /// Their username.
        public var username: String

        enum CodingKeys: String, CodingKey { case username }

        /// Decodes `{username}`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(username: try container.decode(String.self, forKey: .username))
        }

        /// Encodes `{username}`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(username, forKey: .username)
        }
    }

    /// Its id: ids grow with time.
    public var id: Int64
    /// What happened.
    public var type: Kind
    /// When.
    public var createdAt: Date
    /// Who did it.
    public var from: Actor
    /// The tweet it is about: the mentioning tweet, the reply, the repost (whose `repostOf` is yours), or the
    /// tweet liked; nil for a follow.
    public var tweet: Tweet?
    /// Whether the recipient has marked it read.
    public var read: Bool = false
    /// The report an `admin.report` is about; nil for every other type, and then not on the wire.
    public var reportID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, type, createdAt, from, tweet, read
        case reportID = "reportId"
    }

    /// Encodes every member; `tweet` is null for a follow, never left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(from, forKey: .from)
        try container.encode(tweet, forKey: .tweet)
        try container.encode(read, forKey: .read)
        try container.encodeIfPresent(reportID, forKey: .reportID)
    }
}

// @MemberwiseInit
/// Which notifications a list wants: newest first, optionally newer than `sinceID`, older than `maxID`, of
/// some kinds only.
public struct NotificationQuery: Sendable, Equatable {
    /// Only notifications with a larger id.
    public var sinceID: Int64?
    /// Only notifications with a smaller id.
    public var maxID: Int64?
    /// At most this many.
    public var limit: Int = 20
    /// Only these kinds; every kind when nil.
    public var types: Set<ActivityNotification.Kind>?
}

/// Notifications as stored. They are written by the stores of the actions themselves (a post, a like, a
/// follow), in the same transaction, and reported to the commit observer as `AccountEvent.notified`.
public protocol NotificationStoring: Sendable {
    /// `recipientID`'s notifications matching `query`, newest first, leaving out those from `hiding`.
    func notifications(of recipientID: Int64, _ query: NotificationQuery, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    /// `recipientID`'s notifications after `sinceID`, oldest first, for a subscription's catch-up.
    func notifications(of recipientID: Int64, after sinceID: Int64, limit: Int, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    /// Marks every notification up to `upToID` read (a marker that only moves forward); the unread count after.
    func markRead(of recipientID: Int64, upTo upToID: Int64, hiding: Set<Int64>) async throws -> Int
    /// How many are unread.
    func unreadCount(of recipientID: Int64, hiding: Set<Int64>) async throws -> Int
    /// Removes `recipientID`'s notification `id`; false when `recipientID` has none by that id.
    func dismiss(_ id: Int64, of recipientID: Int64) async throws -> Bool
    /// Removes every notification of `recipientID`.
    func clear(of recipientID: Int64) async throws
}
