import GRDB

extension AppDatabase {
    /// Every schema change, in order. Released migrations are never edited: a change is a new migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts, tokens, peer links, login throttle") { db in
            try db.create(table: "user") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("username", .text).notNull()
                // Case-folded copies carry the uniqueness: SQLite's NOCASE folds ASCII only.
                table.column("usernameKey", .text).notNull().unique()
                table.column("email", .text).notNull()
                table.column("emailKey", .text).notNull().unique()
                table.column("passwordHash", .text)
                table.column("firstName", .text).notNull().defaults(to: "")
                table.column("lastName", .text).notNull().defaults(to: "")
                table.column("age", .integer)
                table.column("bio", .text).notNull().defaults(to: "")
                table.column("version", .integer).notNull().defaults(to: 1)
                table.column("createdAt", .datetime).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "token") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("user", onDelete: .cascade).notNull()
                table.column("kind", .text).notNull()
                table.column("name", .text).notNull()
                table.column("hash", .blob).notNull().unique()
                table.column("createdAt", .datetime).notNull()
                table.column("expiresAt", .datetime)
                table.column("lastUsedAt", .datetime)
                table.column("revokedAt", .datetime)
            }
            try db.create(table: "peerLink") { table in
                table.primaryKey("uid", .integer)
                table.belongsTo("user", onDelete: .cascade).notNull()
            }
            try db.create(table: "loginThrottle") { table in
                table.primaryKey("key", .text)
                table.column("failures", .integer).notNull()
                table.column("lastFailureAt", .datetime).notNull()
                table.column("windowStart", .datetime).notNull()
                table.column("windowFailures", .integer).notNull()
            }
        }
        migrator.registerMigration("v2: tweets") { db in
            try db.create(table: "tweet") { table in
                // AUTOINCREMENT: an id is never reused after a delete, so sinceId and maxId stay meaningful.
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("author", inTable: "user", onDelete: .cascade).notNull()
                table.column("text", .text).notNull()
                table.column("createdAt", .datetime).notNull()
                table.column("idempotencyKey", .text)
            }
            // Fetching one author's tweets newest first walks this index; the feed walks the primary key.
            try db.create(index: "tweet_author_id", on: "tweet", columns: ["authorId", "id"])
            try db.create(
                index: "tweet_idempotency", on: "tweet", columns: ["authorId", "idempotencyKey"], unique: true,
                condition: Column("idempotencyKey") != nil
            )
        }
        migrator.registerMigration("v3: follows, replies, reposts, likes") { db in
            // Replies keep the id they answer even once it is deleted (a tombstone keeps its place), so
            // inReplyToId is no foreign key; a repost goes with its original.
            try db.alter(table: "tweet") { table in
                table.add(column: "inReplyToId", .integer)
                table.add(column: "repostOfId", .integer).references("tweet", onDelete: .cascade)
                // Counters kept in the row, in the transaction that changes them: every tweet answer carries
                // them, and counting per tweet per page would cost a query each.
                table.add(column: "likesCount", .integer).notNull().defaults(to: 0)
                table.add(column: "repostsCount", .integer).notNull().defaults(to: 0)
                table.add(column: "repliesCount", .integer).notNull().defaults(to: 0)
            }
            try db.create(
                index: "tweet_reply", on: "tweet", columns: ["inReplyToId"], condition: Column("inReplyToId") != nil)
            // One repost per user and original; also how an original's reposts are found when it is deleted.
            try db.create(
                index: "tweet_repost", on: "tweet", columns: ["repostOfId", "authorId"], unique: true,
                condition: Column("repostOfId") != nil)
            try db.create(table: "tweetTombstone") { table in
                table.primaryKey("id", .integer)
                table.column("inReplyToId", .integer)
            }
            try db.create(index: "tweetTombstone_reply", on: "tweetTombstone", columns: ["inReplyToId"])
            try db.create(table: "follow") { table in
                // The id orders relationships newest first and is the paging cursor.
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("follower", inTable: "user", onDelete: .cascade).notNull()
                table.belongsTo("followee", inTable: "user", onDelete: .cascade).notNull()
                table.column("createdAt", .datetime).notNull()
                table.uniqueKey(["followerId", "followeeId"])
            }
            try db.create(index: "follow_followee_id", on: "follow", columns: ["followeeId", "id"])
            try db.create(index: "follow_follower_id", on: "follow", columns: ["followerId", "id"])
            try db.create(table: "tweetLike") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("tweet", onDelete: .cascade).notNull()
                table.belongsTo("user", onDelete: .cascade).notNull()
                table.column("createdAt", .datetime).notNull()
                table.uniqueKey(["tweetId", "userId"])
            }
            try db.create(index: "tweetLike_tweet_id", on: "tweetLike", columns: ["tweetId", "id"])
        }
        return migrator
    }
}
