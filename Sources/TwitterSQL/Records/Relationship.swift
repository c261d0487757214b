import Foundation

/// A table of relationships from whoever holds one to what it points at, a row a pair (`id`, the two columns,
/// `created_at`): follows, mutes, blocks, likes, bookmarks, list memberships. The names are this module's own,
/// never a request's, so they are written into statements as they are. Follows and likes are written instead by
/// their stores' own named texts, which each connection prepares once.
struct Relationship: Sendable {
    /// The table.
    let table: String
    /// The column of whoever holds the relationship: the follower, the muter, the account that liked, the list.
    let owner: String
    /// The column of what it points at: the followee, the muted account, the tweet liked, the member.
    let target: String

    /// Who follows whom.
    static let follows = Relationship(table: "follows", owner: "follower_id", target: "followee_id")
    /// Who mutes whom.
    static let mutes = Relationship(table: "mutes", owner: "muter_id", target: "muted_id")
    /// Who blocks whom.
    static let blocks = Relationship(table: "blocks", owner: "blocker_id", target: "blocked_id")
    /// Who likes which tweet.
    static let likes = Relationship(table: "tweet_likes", owner: "user_id", target: "tweet_id")
    /// Who bookmarked which tweet.
    static let bookmarks = Relationship(table: "bookmarks", owner: "user_id", target: "tweet_id")
    /// Who reposted which tweet: a repost is a tweet of its author's pointing at the original, its id the
    /// repost's, so newest repost first.
    static let reposts = Relationship(table: "tweets", owner: "author_id", target: "repost_of_id")
    /// Which list holds which account.
    static let listMembers = Relationship(table: "list_members", owner: "list_id", target: "member_id")

    /// The same rows read the other way: from the followee to its followers, from a tweet to its likers.
    var reversed: Relationship {
        Relationship(table: table, owner: target, target: owner)
    }

    /// Inserts the relationship of `owner` to `target` unless it exists; whether it is new.
    @discardableResult
    func insert(_ connection: any SQLConnection, of owner: Int64, to target: Int64) async throws -> Bool {
        try await connection.value(
            """
            INSERT INTO \(unescaped: table) (\(unescaped: self.owner), \(unescaped: self.target), created_at)
            VALUES (\(owner), \(target), \(connection.dialect.stored(Date()))) ON CONFLICT DO NOTHING RETURNING id
            """, as: Int64.self) != nil
    }

    /// Deletes the relationship of `owner` to `target` if it exists; whether there was one.
    @discardableResult
    func delete(_ connection: any SQLConnection, of owner: Int64, to target: Int64) async throws -> Bool {
        try await connection.value(
            """
            DELETE FROM \(unescaped: table) WHERE \(unescaped: self.owner) = \(owner) AND \(unescaped: self.target) = \(target)
            RETURNING id
            """, as: Int64.self) != nil
    }
}
