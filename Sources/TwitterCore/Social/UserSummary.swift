import Foundation

// @MemberwiseInit
/// An account as a list of people shows it.
public struct UserSummary: Sendable, Hashable, Codable {
    /// The public handle.
    public var username: String
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
}

// @MemberwiseInit
/// One page of people, newest relationship first, and where the next page starts.
public struct UserPage: Sendable, Equatable {
    /// The people.
    public var users: [UserSummary]
    /// Pass this as `before` for the next page; nil at the end.
    public var next: Int64?
}

// @MemberwiseInit
/// Which page of people: at most `limit`, older than the relationship `before` (from the previous page).
public struct PageRequest: Sendable, Equatable {
    /// How many, 1 to 200.
    public var limit: Int = 40
    /// Only relationships older than this position.
    public var before: Int64?
    /// People left out: the reader's `HiddenAccounts`.
    public var hiding: Set<Int64> = []
}

// @MemberwiseInit
/// An account as `users.get` shows it: the public profile, its counts, and how it relates to the reader.
public struct UserOverview: Sendable, Hashable, Codable {
    /// The public handle.
    public var username: String
    /// The first name.
    public var firstName: String
    /// The last name.
    public var lastName: String
    /// The bio.
    public var bio: String
    /// When the account was made.
    public var createdAt: Date
    /// How many accounts follow it.
    public var followersCount: Int
    /// How many accounts it follows.
    public var followingCount: Int
    /// How many tweets, replies and reposts it has posted.
    public var tweetsCount: Int
    /// Whether the reader follows it.
    public var followedByMe: Bool
    /// Whether it follows the reader.
    public var followsMe: Bool
    /// Whether the reader mutes it.
    public var mutedByMe: Bool = false
    /// Whether the reader blocks it.
    public var blockedByMe: Bool = false
    /// Its pinned tweet as the reader may see it; nil when none, or one the reader may not see. The stores leave
    /// it nil: the server sets it per reader.
    @NullWhenAbsent public var pinnedTweet: Tweet? = nil
}
