import Foundation
import TwitterCore
import TwitterRules

/// The follow graph; follows and unfollows are ordered writes, reported once committed.
public struct FollowStore: FollowStoring {
    let database: ObservedDatabase

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Refused across a block; following again changes nothing and reports nothing (`RelationRule`).
    public func follow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            if let refusal = RelationRule.followRefusal(
                followee: followeeID, follower: followerID,
                blocker: try await Blocks.blocker(connection, between: followerID, and: followeeID))
            {
                throw refusal
            }
            let now = connection.dialect.stored(Date())
            let inserted = try await connection.value(
                SQLQuery(Insert.self, followerID, followeeID, now), as: Int64.self)
            guard inserted != nil else { return (false, []) }
            var notification: (ActivityNotification, recipientID: Int64)?
            if let planned = RelationRule.followNotification(followee: followeeID, follower: followerID) {
                notification = try await NotificationRows.insert(
                    connection, planned, by: try await NotificationRows.account(connection, followerID), tweet: nil,
                    at: now)
            }
            return (
                true,
                RelationRule.followEvents(follower: followerID, followee: followeeID, notification: notification)
            )
        }
    }

    private enum Insert: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO follows (follower_id, followee_id, created_at) VALUES (\(param: 1), \(param: 2), \(param: 3))
            ON CONFLICT DO NOTHING RETURNING id
            """
    }

    /// Unfollowing what one does not follow changes nothing and reports nothing.
    public func unfollow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            let ended = try await Self.endFollow(connection, followeeID, by: followerID)
            return (ended != nil, ended.map { [$0] } ?? [])
        }
    }

    /// Deletes a follow and withdraws its notification, in the caller's ordered write (an unfollow, a block);
    /// its event, or nil when there was no follow.
    static func endFollow(_ connection: any SQLConnection, _ followeeID: Int64, by followerID: Int64)
        async throws
        -> CommitEvent?
    {
        guard try await connection.value(SQLQuery(Delete.self, followerID, followeeID), as: Int64.self) != nil else {
            return nil
        }
        try await NotificationRows.withdraw(connection, .follow, by: followerID, to: followeeID)
        return .relation(.unfollowed(followerID: followerID, followeeID: followeeID))
    }

    enum Delete: SQLText {
        static let sql: SQLQuery =
            "DELETE FROM follows WHERE follower_id = \(param: 1) AND followee_id = \(param: 2) RETURNING id"
    }

    /// Walks the (followee_id, id) index back from the cursor.
    public func followers(of userID: Int64, page: PageRequest) async throws -> UserPage {
        try await UserPageQuery.read(.follows.reversed, from: userID, page: page, on: database)
    }

    /// Walks the (follower_id, id) index back from the cursor.
    public func following(of userID: Int64, page: PageRequest) async throws -> UserPage {
        try await UserPageQuery.read(.follows, from: userID, page: page, on: database)
    }

    /// Suspended followees included: the timelines leave out their tweets themselves.
    public func followeeIDs(of userID: Int64) async throws -> Set<Int64> {
        try await database.read { connection in
            Set(try await connection.values(SQLQuery(FolloweeIDs.self, userID), as: Int64.self))
        }
    }

    enum FolloweeIDs: SQLText {
        static let sql: SQLQuery = "SELECT followee_id FROM follows WHERE follower_id = \(param: 1)"
    }

    /// The account with its id, pin, counts and relationship to the viewer, in one query; nil for a suspended
    /// account, which is as if gone. The counts leave out suspended accounts and reposts of their tweets.
    public func account(named username: String, viewerID: Int64, counted: Bool) async throws -> AccountOverview? {
        let text: any SQLText.Type = counted ? CountedOverview.self : Overview.self
        let statement = SQLQuery(text, viewerID, UserRows.key(username))
        return try await database.read { connection in
            try await connection.firstRow(statement).map { row in
                let overview = UserOverview(
                    username: try row.column("username"), firstName: try row.column("first_name"),
                    lastName: try row.column("last_name"), bio: try row.column("bio"),
                    createdAt: try row.column("created_at"), followersCount: try row.column("followers_count"),
                    followingCount: try row.column("following_count"), tweetsCount: try row.column("tweets_count"),
                    followedByMe: try row.column("followed_by_me"), followsMe: try row.column("follows_me"),
                    mutedByMe: try row.column("muted_by_me"), blockedByMe: try row.column("blocked_by_me"))
                return AccountOverview(
                    id: try row.column("id"), pinnedTweetID: try row.column("pinned_tweet_id"), overview: overview)
            }
        }
    }

    /// `overview`'s text for the viewer (1) and the username's key (2), with `counts`: each profile view reads one,
    /// so each is compiled once a connection (compiling it had been a tenth of a public profile page, by perf).
    private static func overviewText(counts: SQLQuery) -> SQLQuery {
        """
        SELECT users.id, users.username, users.first_name, users.last_name, users.bio, users.created_at, \(counts),
            (SELECT tweet_id FROM pinned_tweets WHERE user_id = users.id) AS pinned_tweet_id,
            EXISTS(SELECT 1 FROM follows WHERE follower_id = \(param: 1) AND followee_id = users.id) AS followed_by_me,
            EXISTS(SELECT 1 FROM follows WHERE follower_id = users.id AND followee_id = \(param: 1)) AS follows_me,
            EXISTS(SELECT 1 FROM mutes WHERE muter_id = \(param: 1) AND muted_id = users.id) AS muted_by_me,
            EXISTS(SELECT 1 FROM blocks WHERE blocker_id = \(param: 1) AND blocked_id = users.id) AS blocked_by_me
        FROM users WHERE username_key = \(param: 2) AND suspended_at IS NULL
        """
    }

    private enum CountedOverview: SQLText {
        static let sql = FollowStore.overviewText(counts: FollowStore.countColumns("users.id"))
    }

    private enum Overview: SQLText {
        static let sql = FollowStore.overviewText(
            counts: "0 AS followers_count, 0 AS following_count, 0 AS tweets_count")
    }

    /// The three counts of `overview`, of the account `account` names (a column, or a value bound).
    private static func countColumns(_ account: SQLQuery) -> SQLQuery {
        """
        (SELECT count(*) FROM follows WHERE followee_id = \(account)
            AND \(AccountStanding.notSuspended("follower_id"))) AS followers_count,
        (SELECT count(*) FROM follows WHERE follower_id = \(account)
            AND \(AccountStanding.notSuspended("followee_id"))) AS following_count,
        (SELECT count(*) FROM tweets LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
            WHERE tweets.author_id = \(account)
                AND (original.id IS NULL OR \(AccountStanding.notSuspended("original.author_id"))))
            AS tweets_count
        """
    }

    /// Counted as `overview` counts; zeros for no account.
    public func counts(of userID: Int64) async throws -> AccountCounts {
        try await database.read { connection in
            let row = try await connection.firstRow("SELECT \(Self.countColumns("\(userID)"))")
            return AccountCounts(
                followers: try row?.column("followers_count") ?? 0, following: try row?.column("following_count") ?? 0,
                tweets: try row?.column("tweets_count") ?? 0)
        }
    }
}
