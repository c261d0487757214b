import GRDB
import TwitterCore
import TwitterSQL

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
        migrator.registerMigration("v4: mentions, tags, search, notifications, mutes, blocks") { db in
            // The accounts a tweet mentioned when it was posted. Its entities are found again from the text when it
            // is read, keeping the mentions whose account still has the name written: an account renamed
            // since is no longer linked, and one that takes the old name later never is.
            try db.create(table: "tweetMention", options: .withoutRowID) { table in
                table.belongsTo("tweet", onDelete: .cascade).notNull()
                table.belongsTo("user", onDelete: .cascade).notNull()
                table.primaryKey(["tweetId", "userId"])
            }
            try db.create(index: "tweetMention_user", on: "tweetMention", columns: ["userId"])
            try db.create(table: "tweetTag", options: .withoutRowID) { table in
                table.column("tag", .text).notNull()
                table.belongsTo("tweet", onDelete: .cascade).notNull()
                table.column("authorId", .integer).notNull()
                table.column("createdAt", .datetime).notNull()
                table.primaryKey(["tag", "tweetId"])
            }
            try db.create(index: "tweetTag_createdAt", on: "tweetTag", columns: ["createdAt"])
            try db.create(index: "tweetTag_tweet", on: "tweetTag", columns: ["tweetId"])
            // The text index reads the tweet table (external content) and is kept by triggers in the transaction
            // of every post and deletion. unicode61 with diacritics removed matches "cafe" to "Café". The index
            // costs every post: 29 µs a post in batches of 100 with SQLite's defaults, 24 µs without the
            // column sizes (only bm25() reads them, and SearchRanking ranks instead) and merging segments
            // less eagerly (automerge 16: a two-word window query 0.76 -> 0.88 ms). Measured with Python's
            // sqlite3 on 200k random tweets, the same SQLite.
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE tweetSearch USING fts5(
                        text, content='tweet', content_rowid='id', tokenize='unicode61 remove_diacritics 2',
                        columnsize=0);
                    INSERT INTO tweetSearch(tweetSearch, rank) VALUES ('automerge', 16);
                    CREATE TRIGGER tweetSearch_insert AFTER INSERT ON tweet BEGIN
                        INSERT INTO tweetSearch(rowid, text) VALUES (new.id, new.text);
                    END;
                    CREATE TRIGGER tweetSearch_delete AFTER DELETE ON tweet BEGIN
                        INSERT INTO tweetSearch(tweetSearch, rowid, text) VALUES ('delete', old.id, old.text);
                    END;
                    INSERT INTO tweetSearch(tweetSearch) VALUES ('rebuild');
                    """)
            try db.create(table: "notification") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("recipient", inTable: "user", onDelete: .cascade).notNull()
                table.column("type", .text).notNull()
                table.belongsTo("actor", inTable: "user", onDelete: .cascade).notNull()
                // Deleting the reply, the mention or the repost withdraws its notification with it.
                table.belongsTo("tweet", onDelete: .cascade)
                table.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "notification_recipient_id", on: "notification", columns: ["recipientId", "id"])
            try db.create(index: "notification_actor", on: "notification", columns: ["actorId"])
            try db.create(index: "notification_tweet", on: "notification", columns: ["tweetId"])
            try db.create(table: "notificationMarker") { table in
                table.primaryKey("userId", .integer).references("user", onDelete: .cascade)
                table.column("readUpTo", .integer).notNull()
            }
            try backfillEntities(db)
            for (name, owner, other) in [("mute", "muter", "muted"), ("block", "blocker", "blocked")] {
                try db.create(table: name) { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.belongsTo(owner, inTable: "user", onDelete: .cascade).notNull()
                    table.belongsTo(other, inTable: "user", onDelete: .cascade).notNull()
                    table.column("createdAt", .datetime).notNull()
                    table.uniqueKey(["\(owner)Id", "\(other)Id"])
                }
                try db.create(index: "\(name)_\(owner)_id", on: name, columns: ["\(owner)Id", "id"])
                try db.create(index: "\(name)_\(other)", on: name, columns: ["\(other)Id"])
            }
        }
        migrator.registerMigration("v5: suspensions, reports, audit log, reserved names, reset codes, rate buckets") {
            db in
            // A suspended account's content is left out by the reads themselves (`TweetRows.select` joins the
            // author), so suspending and unsuspending change only these two columns and the counters.
            try db.alter(table: "user") { table in
                table.add(column: "suspendedAt", .datetime)
                table.add(column: "suspendedReason", .text)
            }
            // Only the suspended: `AccountStanding.suspendedIDs` reads this, and it stays as small as they are.
            try db.execute(sql: "CREATE INDEX user_suspended ON user(id) WHERE suspendedAt IS NOT NULL")
            try db.create(table: "report") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("reporter", inTable: "user", onDelete: .cascade).notNull()
                // The account reported, or the tweet's author; a report goes with either account.
                table.belongsTo("account", inTable: "user", onDelete: .cascade).notNull()
                // Kept when the tweet is deleted (by its author or a moderator): the report stays readable.
                table.column("tweetId", .integer)
                table.column("reason", .text).notNull()
                table.column("status", .text).notNull().defaults(to: "open")
                table.column("createdAt", .datetime).notNull()
                table.column("note", .text)
                table.column("resolvedBy", .text)
                table.column("resolvedAt", .datetime)
            }
            try db.create(index: "report_status_id", on: "report", columns: ["status", "id"])
            try db.create(index: "report_reporter", on: "report", columns: ["reporterId"])
            try db.create(index: "report_account", on: "report", columns: ["accountId"])
            try db.alter(table: "notification") { table in
                table.add(column: "reportId", .integer).references("report", onDelete: .cascade)
            }
            try db.create(index: "notification_report", on: "notification", columns: ["reportId"])
            // Names, not ids: the record outlives the accounts it names.
            try db.create(table: "auditEntry") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("actor", .text).notNull()
                table.column("action", .text).notNull()
                table.column("target", .text).notNull()
                table.column("reason", .text)
                table.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "reservedUsername") { table in
                table.primaryKey("usernameKey", .text)
                table.column("until", .datetime).notNull()
            }
            try db.create(table: "passwordReset") { table in
                table.primaryKey("userId", .integer).references("user", onDelete: .cascade)
                table.column("codeHash", .blob).notNull()
                table.column("expiresAt", .datetime).notNull()
            }
            try db.create(table: "rateBucket", options: .withoutRowID) { table in
                table.belongsTo("user", onDelete: .cascade).notNull()
                table.column("action", .text).notNull()
                table.column("tokens", .double).notNull()
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["userId", "action"])
            }
        }
        migrator.registerMigration("v6: the text index off the posts' commit path") { db in
            // Posts no longer write the text index in their own transaction (it halved durable posts a second):
            // `SearchIndexer` adds tweets to it after their commit, up to the mark kept here, and search reads
            // the tweets past the mark from the tweet table. A deletion takes from the index only what it
            // holds: an external-content index's 'delete' must name a row as it was indexed, or the index is
            // no longer what the tweet table says it is.
            try db.execute(
                sql: """
                    DROP TRIGGER tweetSearch_insert;
                    DROP TRIGGER tweetSearch_delete;
                    CREATE TABLE searchIndexMark (
                        id INTEGER PRIMARY KEY CHECK (id = 1), indexedThrough INTEGER NOT NULL);
                    INSERT INTO searchIndexMark VALUES (1, (SELECT IFNULL(MAX(id), 0) FROM tweet));
                    CREATE TRIGGER tweetSearch_delete AFTER DELETE ON tweet
                    WHEN old.id <= (SELECT indexedThrough FROM searchIndexMark) BEGIN
                        INSERT INTO tweetSearch(tweetSearch, rowid, text) VALUES ('delete', old.id, old.text);
                    END;
                    """)
        }
        migrator.registerMigration("v7: roles belong to accounts, peer links say when they were made") { db in
            // A role was once decided from a configured username at each login, so a name that changed hands
            // carried the role with it; it is now a column of the account, granted and revoked by admins.
            try db.execute(
                sql: """
                    ALTER TABLE user ADD COLUMN role TEXT NOT NULL DEFAULT 'user';
                    ALTER TABLE peerLink ADD COLUMN linkedAt DATETIME;
                    """)
        }
        migrator.registerMigration("v8: signup rate buckets per local user") { db in
            // Keyed by the kernel's uid, not by an account: signups are limited per local user (`rates.signups`),
            // and a uid may have no account at all.
            try db.create(table: "signupBucket") { table in
                table.primaryKey("uid", .integer)
                table.column("tokens", .double).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v9: one vocabulary with the PostgreSQL store: snake_case, plural tables") { db in
            // Both stores name every table and column alike, so a query reads the same in either and migrate-data
            // copies without a map. SQLite rewrites the foreign keys, indexes and triggers that name what is
            // renamed; the text index is made again because FTS5 keeps its content table's name as written.
            try db.execute(sql: "DROP TRIGGER tweetSearch_delete; DROP TABLE tweetSearch")
            // (old name, new name, its camelCase columns): each column becomes its snake_case spelling.
            let renames = [
                (
                    "user", "users",
                    "usernameKey emailKey passwordHash firstName lastName createdAt updatedAt suspendedAt suspendedReason"
                ),
                ("token", "tokens", "userId createdAt expiresAt lastUsedAt revokedAt"),
                ("peerLink", "peer_links", "userId linkedAt"),
                ("loginThrottle", "login_throttles", "lastFailureAt windowStart windowFailures"),
                (
                    "tweet", "tweets",
                    "authorId createdAt idempotencyKey inReplyToId repostOfId likesCount repostsCount repliesCount"
                ),
                ("tweetTombstone", "tweet_tombstones", "inReplyToId"),
                ("follow", "follows", "followerId followeeId createdAt"),
                ("tweetLike", "tweet_likes", "tweetId userId createdAt"),
                ("tweetMention", "tweet_mentions", "tweetId userId"),
                ("tweetTag", "tweet_tags", "tweetId authorId createdAt"),
                ("notification", "notifications", "recipientId actorId tweetId createdAt reportId"),
                ("notificationMarker", "notification_markers", "userId readUpTo"),
                ("mute", "mutes", "muterId mutedId createdAt"),
                ("block", "blocks", "blockerId blockedId createdAt"),
                ("report", "reports", "reporterId accountId tweetId createdAt resolvedBy resolvedAt"),
                ("auditEntry", "audit_entries", "createdAt"),
                ("reservedUsername", "reserved_usernames", "usernameKey"),
                ("passwordReset", "password_resets", "userId codeHash expiresAt"),
                ("rateBucket", "rate_buckets", "userId updatedAt"),
                ("signupBucket", "signup_buckets", "updatedAt"),
                ("searchIndexMark", "search_index_marks", "indexedThrough"),
            ]
            for (old, new, columns) in renames {
                try db.execute(sql: "ALTER TABLE \(old.quotedDatabaseIdentifier) RENAME TO \(new)")
                for column in columns.split(separator: " ") {
                    let snake = column.map { $0.isUppercase ? "_" + $0.lowercased() : String($0) }.joined()
                    try db.execute(sql: "ALTER TABLE \(new) RENAME COLUMN \(column) TO \(snake)")
                }
            }
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE tweet_search USING fts5(
                        text, content='tweets', content_rowid='id', tokenize='unicode61 remove_diacritics 2',
                        columnsize=0);
                    INSERT INTO tweet_search(tweet_search, rank) VALUES ('automerge', 16);
                    INSERT INTO tweet_search(tweet_search) VALUES ('rebuild');
                    UPDATE search_index_marks SET indexed_through = (SELECT IFNULL(MAX(id), 0) FROM tweets);
                    CREATE TRIGGER tweet_search_delete AFTER DELETE ON tweets
                    WHEN old.id <= (SELECT indexed_through FROM search_index_marks) BEGIN
                        INSERT INTO tweet_search(tweet_search, rowid, text) VALUES ('delete', old.id, old.text);
                    END;
                    """)
        }
        migrator.registerMigration("v10: direct messages") { db in
            // Texts are sealed (`MessageSealing`) before they reach a store: `sealed_text` holds nonce and
            // ciphertext, NULL once the sender deleted the message (its row stays as the placeholder).
            // `members_key` finds the conversation of exactly the accounts a `to` names.
            try db.execute(
                sql: """
                    CREATE TABLE conversations (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        members_key TEXT NOT NULL UNIQUE,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL,
                        last_message_id INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE conversation_members (
                        conversation_id INTEGER NOT NULL REFERENCES conversations ON DELETE CASCADE,
                        user_id INTEGER NOT NULL,
                        joined_after_id INTEGER NOT NULL DEFAULT 0,
                        last_read_id INTEGER NOT NULL DEFAULT 0,
                        left_at DATETIME,
                        PRIMARY KEY (conversation_id, user_id)) WITHOUT ROWID;
                    CREATE INDEX conversation_members_user_id ON conversation_members (user_id, conversation_id);
                    CREATE TABLE messages (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        conversation_id INTEGER NOT NULL REFERENCES conversations ON DELETE CASCADE,
                        sender_id INTEGER NOT NULL,
                        sealed_text BLOB,
                        created_at DATETIME NOT NULL,
                        idempotency_key TEXT);
                    CREATE INDEX messages_conversation_id ON messages (conversation_id, id);
                    CREATE INDEX messages_sender_id ON messages (sender_id, idempotency_key);
                    CREATE TABLE message_settings (
                        user_id INTEGER PRIMARY KEY,
                        messages_from TEXT NOT NULL);
                    """)
        }
        migrator.registerMigration("v11: bookmarks, pinned tweets") { db in
            // Private to their owner; a bookmark goes with its tweet and with either account. A pin too: a
            // deleted tweet is pinned no more.
            try db.execute(
                sql: """
                    CREATE TABLE bookmarks (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        tweet_id INTEGER NOT NULL REFERENCES tweets(id) ON DELETE CASCADE,
                        created_at DATETIME NOT NULL,
                        UNIQUE (user_id, tweet_id));
                    CREATE INDEX bookmarks_user_id ON bookmarks (user_id, id);
                    CREATE INDEX bookmarks_tweet_id ON bookmarks (tweet_id);
                    CREATE TABLE pinned_tweets (
                        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        tweet_id INTEGER NOT NULL REFERENCES tweets(id) ON DELETE CASCADE,
                        pinned_at DATETIME NOT NULL);
                    CREATE INDEX pinned_tweets_tweet_id ON pinned_tweets (tweet_id);
                    """)
        }
        migrator.registerMigration("v12: quotes") { db in
            // A quote keeps the id it quotes once that is deleted (it shows as unavailable): no foreign key.
            try db.execute(
                sql: """
                    ALTER TABLE tweets ADD COLUMN quote_of INTEGER;
                    ALTER TABLE tweets ADD COLUMN quotes_count INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX tweets_quote_of ON tweets (quote_of, id) WHERE quote_of IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v13: lists") { db in
            // A list goes with its owner, a membership with the list and with the member; members_count is the
            // rows, moved by every write that adds or takes one (ListRule), the deletion of an account included.
            try db.execute(
                sql: """
                    CREATE TABLE lists (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        description TEXT NOT NULL DEFAULT '',
                        is_private BOOLEAN NOT NULL DEFAULT 0,
                        members_count INTEGER NOT NULL DEFAULT 0,
                        created_at DATETIME NOT NULL);
                    CREATE INDEX lists_owner_id ON lists (owner_id, id);
                    CREATE TABLE list_members (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        list_id INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
                        member_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at DATETIME NOT NULL,
                        UNIQUE (list_id, member_id));
                    CREATE INDEX list_members_list_id ON list_members (list_id, id);
                    CREATE INDEX list_members_member_id ON list_members (member_id);
                    """)
        }
        migrator.registerMigration("v14: a uid is keyed by its host; a peer session remembers its link") { db in
            // A uid is a person only on its own machine, and daemons of several hosts may share one database: peer
            // links and signup buckets are keyed by (host, uid). The migration cannot know the machine it runs
            // for, so existing rows get host '', which the first daemon to start claims (`HostClaim`). A session a
            // peer login minted names its link (peer_host, peer_uid), so unlinking the uid ends it.
            try db.execute(
                sql: """
                    CREATE TABLE peer_links_by_host (
                        host TEXT NOT NULL DEFAULT '',
                        uid INTEGER NOT NULL,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        linked_at DATETIME,
                        PRIMARY KEY (host, uid));
                    INSERT INTO peer_links_by_host (host, uid, user_id, linked_at)
                        SELECT '', uid, user_id, linked_at FROM peer_links;
                    DROP TABLE peer_links;
                    ALTER TABLE peer_links_by_host RENAME TO peer_links;
                    CREATE INDEX peer_links_user_id ON peer_links (user_id);
                    CREATE TABLE signup_buckets_by_host (
                        host TEXT NOT NULL DEFAULT '',
                        uid INTEGER NOT NULL,
                        tokens DOUBLE NOT NULL,
                        updated_at DATETIME NOT NULL,
                        PRIMARY KEY (host, uid));
                    INSERT INTO signup_buckets_by_host (host, uid, tokens, updated_at)
                        SELECT '', uid, tokens, updated_at FROM signup_buckets;
                    DROP TABLE signup_buckets;
                    ALTER TABLE signup_buckets_by_host RENAME TO signup_buckets;
                    ALTER TABLE tokens ADD COLUMN peer_host TEXT;
                    ALTER TABLE tokens ADD COLUMN peer_uid INTEGER;
                    """)
        }
        migrator.registerMigration("v15: a list's members_count leaves out its suspended members") { db in
            // A suspension now takes the account's places in lists out of their counters, as it does its likes
            // and replies (Contributions); lists with a member suspended before this counted it.
            try db.execute(
                sql: """
                    UPDATE lists SET members_count = (
                        SELECT count(*) FROM list_members JOIN users ON users.id = list_members.member_id
                        WHERE list_members.list_id = lists.id AND users.suspended_at IS NULL);
                    """)
        }
        // From here on, each migration is described once for both databases (`SchemaHistory`).
        for (offset, migration) in SchemaHistory.migrations.enumerated() {
            migrator.registerMigration(describedName(migration, number: lastWrittenByHand + 1 + offset)) { db in
                for statement in migration.statements(for: SQLiteDialect()) { try db.execute(sql: statement) }
            }
        }
        return migrator
    }

    /// The last migration written for SQLite alone; those of `SchemaHistory` are numbered after it.
    static let lastWrittenByHand = 15

    /// The name GRDB records for the described migration numbered `number`.
    static func describedName(_ migration: SchemaMigration, number: Int) -> String {
        "v\(number): " + migration.name
    }

    /// Gives the tweets posted before v4 the mentions and tags a post now records, so old tweets are found by
    /// tag and trend like new ones. No notification is made for them: they are news to no one.
    static func backfillEntities(_ db: Database) throws {
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT id, authorId, text, createdAt FROM tweet WHERE text LIKE '%@%' OR text LIKE '%#%' OR text LIKE '%＃%'"
        )
        var accounts: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, usernameKey FROM user") {
            accounts[row["usernameKey"]] = row["id"]
        }
        for row in rows {
            let found = EntityScanner.scan(row["text"])
            let mentioned = Set(found.mentions.compactMap { accounts[EntityScanner.usernameKey($0.username)] })
            // The statements of v4's schema, written out: the row helpers speak the schema of today.
            for accountID in mentioned {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO tweetMention (tweetId, userId) VALUES (?, ?)",
                    arguments: [row["id"], accountID])
            }
            for key in Set(found.hashtags.map { EntityScanner.tagKey($0.tag) }) {
                try db.execute(
                    sql: "INSERT INTO tweetTag (tag, tweetId, authorId, createdAt) VALUES (?, ?, ?, ?)",
                    arguments: [key, row["id"], row["authorId"], row["createdAt"] as DatabaseValue])
            }
        }
    }
}
