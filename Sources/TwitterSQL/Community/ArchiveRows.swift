import Foundation
import TwitterCore

/// How an archive page reads each of its lists: one query per list, oldest first after the cursor.
enum ArchiveRows {
    /// The profile of `userID`, as its owner sees it.
    static func profile(_ connection: any SQLConnection, of userID: Int64) async throws -> Profile? {
        try await connection.firstRow(
            """
            SELECT username, email, first_name, last_name, age, bio, version, updated_at FROM users
            WHERE id = \(userID)
            """
        ).map {
            Profile(
                username: try $0.column("username"), email: try $0.column("email"),
                firstName: try $0.column("first_name"), lastName: try $0.column("last_name"),
                age: try $0.column("age", as: Int?.self), bio: try $0.column("bio"),
                version: try $0.column("version", as: Int.self), updatedAt: try $0.column("updated_at"))
        }
    }

    /// Appends the rows of `section` after `after` to `page`, up to `limit` - 1 of them; returns how many rows
    /// there were (up to `limit`) and the id of the last one kept.
    static func read(
        _ connection: any SQLConnection, _ section: ArchiveCursor.Section, of userID: Int64, after: Int64,
        limit: Int, into page: inout AccountArchivePage
    ) async throws -> (count: Int, lastKept: Int64) {
        let keep = limit - 1
        switch section {
        case .tweets:
            let query = TweetRows.select(
                """
                WHERE tweets.author_id = \(userID) AND tweets.id > \(after)
                ORDER BY tweets.id LIMIT \(limit)
                """)
            let tweets = try await TweetRows.fetchAll(connection, query)
            // Reposts of tweets the owner may no longer see (across a block) carry none of their text.
            let visibility = TweetVisibility(try await RelationStore.hiddenAccounts(connection, of: userID))
            page.tweets += tweets.prefix(keep).map(visibility.archived)
            return (tweets.count, tweets.prefix(keep).last?.id ?? after)
        case .likes, .bookmarks:
            let marks = section == .likes ? Relationship.likes : Relationship.bookmarks
            let rows = try await connection.rows(
                """
                SELECT id, \(unescaped: marks.target) AS tweet_id, created_at FROM \(unescaped: marks.table)
                WHERE \(unescaped: marks.owner) = \(userID) AND id > \(after) ORDER BY id LIMIT \(limit)
                """)
            for row in rows.prefix(keep) {
                let tweetID: Int64 = try row.column("tweet_id")
                let createdAt: Date = try row.column("created_at")
                if section == .likes {
                    page.likes.append(ArchivedLike(tweetId: tweetID, createdAt: createdAt))
                } else {
                    page.bookmarks.append(ArchivedBookmark(tweetId: tweetID, createdAt: createdAt))
                }
            }
            return (rows.count, try rows.prefix(keep).last?.column("id", as: Int64.self) ?? after)
        case .lists:
            let lists = try await connection.rows(
                """
                SELECT id, name, description, is_private, created_at FROM lists
                WHERE owner_id = \(userID) AND id > \(after) ORDER BY id LIMIT \(limit)
                """)
            for list in lists.prefix(keep) {
                let id = try list.column("id", as: Int64.self)
                let members = try await connection.rows(
                    """
                    SELECT users.username, list_members.created_at FROM list_members
                    JOIN users ON users.id = list_members.member_id WHERE list_members.list_id = \(id)
                    ORDER BY list_members.id
                    """
                ).map { ArchivedRelation(username: try $0.column("username"), createdAt: try $0.column("created_at")) }
                page.lists.append(
                    ArchivedList(
                        id: id, name: try list.column("name"), description: try list.column("description"),
                        isPrivate: try list.column("is_private"), createdAt: try list.column("created_at"),
                        members: members))
            }
            return (lists.count, try lists.prefix(keep).last?.column("id", as: Int64.self) ?? after)
        case .conversations:
            // The message store's (`MessageStoring.archive`): no list of the account store's.
            return (0, after)
        case .follows, .mutes, .blocks:
            let relationship: Relationship =
                switch section {
                case .follows: .follows
                case .mutes: .mutes
                default: .blocks
                }
            let rows = try await connection.rows(
                """
                SELECT relationship.id, users.username, relationship.created_at
                FROM \(unescaped: relationship.table) AS relationship
                JOIN users ON users.id = relationship.\(unescaped: relationship.target)
                WHERE relationship.\(unescaped: relationship.owner) = \(userID) AND relationship.id > \(after)
                ORDER BY relationship.id LIMIT \(limit)
                """)
            let kept = try rows.prefix(keep).map {
                ArchivedRelation(username: try $0.column("username"), createdAt: try $0.column("created_at"))
            }
            switch section {
            case .follows: page.follows += kept
            case .mutes: page.mutes += kept
            default: page.blocks += kept
            }
            return (rows.count, try rows.prefix(keep).last?.column("id", as: Int64.self) ?? after)
        }
    }
}
