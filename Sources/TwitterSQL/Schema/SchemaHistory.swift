/// The migrations written once for both databases, oldest first: those after SQLite's v15 and PostgreSQL's 11,
/// the last written twice by hand (and released, so never edited). Append a new one here; `AppDatabase` and
/// `PostgresSchema` number it after their own.
public enum SchemaHistory {
    /// Every migration described once, oldest first.
    public static let migrations: [SchemaMigration] = [oauth, webVisible, duplicateIndexes]

    /// SQLite v16, PostgreSQL 13 (#50): OAuth apps, their authorization codes and app tokens; an account's access
    /// token is a row of `tokens` naming its app and scopes, so it ends as every token does.
    static let oauth = SchemaMigration(
        "OAuth apps, authorization codes, app tokens; tokens' app and scopes",
        [
            .createTable(
                SchemaTable(
                    "oauth_apps",
                    [
                        SchemaColumn("client_id", .text), SchemaColumn("secret_hash", .blob),
                        SchemaColumn("name", .text), SchemaColumn("redirect_uris", .text),
                        SchemaColumn("scopes", .text), SchemaColumn("website", .text, nullable: true),
                        SchemaColumn("created_at", .date),
                    ], uniques: [["client_id"]])),
            .createTable(
                SchemaTable(
                    "oauth_codes",
                    [
                        SchemaColumn("hash", .blob), SchemaColumn("app_id", .integer, references: "oauth_apps"),
                        SchemaColumn("user_id", .integer, references: "users"), SchemaColumn("scopes", .text),
                        SchemaColumn("redirect_uri", .text), SchemaColumn("created_at", .date),
                        SchemaColumn("expires_at", .date), SchemaColumn("used_at", .date, nullable: true),
                    ], uniques: [["hash"]])),
            .createTable(
                SchemaTable(
                    "oauth_app_tokens",
                    [
                        SchemaColumn("hash", .blob), SchemaColumn("app_id", .integer, references: "oauth_apps"),
                        SchemaColumn("scopes", .text), SchemaColumn("created_at", .date),
                        SchemaColumn("revoked_at", .date, nullable: true),
                    ], uniques: [["hash"]])),
            .addColumn(table: "tokens", SchemaColumn("app_id", .integer, nullable: true)),
            .addColumn(table: "tokens", SchemaColumn("scopes", .text, nullable: true)),
        ])

    /// SQLite v17, PostgreSQL 14 (#52): whether an account's profile and tweets are on the public web pages; every
    /// account already there is.
    static let webVisible = SchemaMigration(
        "users.web_visible: an account's profile and tweets on the public web pages, or off them",
        [.addColumn(table: "users", SchemaColumn("web_visible", .boolean, default: .boolean(true)))])

    /// SQLite v18, PostgreSQL 15 (#51): the indexes SQLite's first migrations made for each foreign key (GRDB's
    /// `belongsTo`, named `…_on_…Id`) where another index holds the same rows in the same order: an index of a
    /// table with an integer key keeps that key after its columns, so `(author_id)` is `(author_id, id)`. Each was
    /// one more page a write touched and synced (a post wrote four pages to the log, now three) for no read
    /// that the other could not serve. PostgreSQL's schema, written by hand, never had them: there the
    /// statements find nothing to drop.
    static let duplicateIndexes = SchemaMigration(
        "drop the foreign-key indexes that duplicate another index",
        [
            "tweet_on_authorId", "follow_on_followerId", "follow_on_followeeId", "block_on_blockerId",
            "block_on_blockedId", "mute_on_muterId", "mute_on_mutedId", "tweetLike_on_tweetId",
            "tweetMention_on_userId", "tweetTag_on_tweetId", "notification_on_actorId", "notification_on_recipientId",
            "notification_on_tweetId", "report_on_accountId", "report_on_reporterId",
            // Tables keyed by their columns (WITHOUT ROWID): the key itself is the index on its first column.
            "tweetMention_on_tweetId", "rateBucket_on_userId",
        ].map { .statement("DROP INDEX IF EXISTS " + $0) })
}
