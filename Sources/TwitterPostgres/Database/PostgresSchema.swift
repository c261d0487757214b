import Logging
import PostgresNIO
import TwitterSQL

/// The PostgreSQL schema, as numbered migrations applied in order, each in the transaction that records it.
///
/// The tables mirror the SQLite store's, under the same names since migration 4 (SQLite's v9), in PostgreSQL's
/// own terms: `bigserial` ids (never reused, so `sinceId` and `maxId` stay meaningful), `timestamptz`,
/// `bytea`, and a `tsvector` column for search instead of FTS5. Released migrations are never edited.
enum PostgresSchema {
    /// One schema change.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let sql: String
    }

    /// The advisory lock key every migration run holds: two daemons starting at once apply each migration once.
    /// ("twitterd" in ASCII.)
    static let migrationLock: Int64 = 0x7477_6974_7465_7264

    /// Applies every migration the database lacks, under the advisory lock; returns the versions applied.
    @discardableResult
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        try await client.withConnection { connection in
            try await connection.inTransaction { connection in
                try await connection.run("SELECT pg_advisory_xact_lock(\(migrationLock))")
                try await connection.run(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migration (
                        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                let applied = Set(
                    try await connection.values("SELECT version FROM schema_migration", as: Int.self))
                var done: [Int] = []
                for migration in migrations where !applied.contains(migration.version) {
                    // Several statements in one simple query: PostgreSQL runs them in the open transaction.
                    try await connection.runScript(migration.sql)
                    try await connection.run(
                        "INSERT INTO schema_migration (version, name) VALUES (\(migration.version), \(migration.name))")
                    logger.notice(
                        "database migrated", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                    done.append(migration.version)
                }
                return done
            }
        }
    }

    /// The newest version this build knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    static let migrations: [Migration] = writtenByHand + described(SchemaHistory.migrations, after: lastWrittenByHand)

    /// `migrations` described once for both databases (`SchemaHistory`), numbered after `version`, each one
    /// script of the statements PostgreSQL's dialect renders.
    static func described(_ migrations: [SchemaMigration], after version: Int) -> [Migration] {
        migrations.enumerated().map { offset, migration in
            Migration(
                version: version + 1 + offset, name: migration.name,
                sql: migration.statements(for: PostgresDialect()).map { $0 + ";\n" }.joined())
        }
    }

    /// The last migration written for PostgreSQL alone; those of `SchemaHistory` are numbered after it.
    static let lastWrittenByHand = 12

    /// The migrations written for PostgreSQL alone, released: never edited.
    private static let writtenByHand: [Migration] = [
        Migration(
            version: 1, name: "accounts, tweets, the graph, notifications, search, moderation",
            sql: """
                -- unaccent folds "Café" to "Cafe" for search, as the SQLite store's unicode61 tokenizer does. It is a
                -- trusted extension: the database's owner may create it without being a superuser.
                CREATE EXTENSION IF NOT EXISTS unaccent;
                -- unaccent() is only STABLE (its dictionary could change); the index needs an IMMUTABLE function,
                -- which this one is for a fixed dictionary named outright.
                -- ASCII punctuation becomes a space first, so words split where unicode61 splits them: PostgreSQL's
                -- parser would otherwise keep "example.com", "bob@example.com" or "well-known" as tokens of their
                -- own, which a search for "example", "bob" or "known" does not match.
                CREATE FUNCTION twitterd_search_words(body text) RETURNS text
                    LANGUAGE sql IMMUTABLE PARALLEL SAFE
                    RETURN regexp_replace(public.unaccent('public.unaccent'::regdictionary, body), '[[:punct:]]+', ' ', 'g');
                CREATE FUNCTION twitterd_search_text(body text) RETURNS tsvector
                    LANGUAGE sql IMMUTABLE PARALLEL SAFE
                    RETURN to_tsvector('simple'::regconfig, twitterd_search_words(body));
                -- A search term as the index sees its words: a phrase of them, in order.
                CREATE FUNCTION twitterd_search_term(term text) RETURNS tsquery
                    LANGUAGE sql IMMUTABLE PARALLEL SAFE
                    RETURN phraseto_tsquery('simple'::regconfig, twitterd_search_words(term));

                CREATE TABLE users (
                    id bigserial PRIMARY KEY,
                    username text NOT NULL,
                    -- Case-folded copies carry the uniqueness, as in the SQLite store.
                    username_key text NOT NULL UNIQUE,
                    email text NOT NULL,
                    email_key text NOT NULL UNIQUE,
                    password_hash text,
                    first_name text NOT NULL DEFAULT '',
                    last_name text NOT NULL DEFAULT '',
                    age integer,
                    bio text NOT NULL DEFAULT '',
                    version integer NOT NULL DEFAULT 1,
                    created_at timestamptz NOT NULL,
                    updated_at timestamptz NOT NULL,
                    suspended_at timestamptz,
                    suspended_reason text);
                CREATE INDEX users_suspended ON users (id) WHERE suspended_at IS NOT NULL;

                CREATE TABLE token (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    kind text NOT NULL,
                    name text NOT NULL,
                    hash bytea NOT NULL UNIQUE,
                    created_at timestamptz NOT NULL,
                    expires_at timestamptz,
                    last_used_at timestamptz,
                    revoked_at timestamptz);
                CREATE INDEX token_user ON token (user_id);

                CREATE TABLE peer_link (
                    uid bigint PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE);
                CREATE INDEX peer_link_user ON peer_link (user_id);

                CREATE TABLE login_throttle (
                    key text PRIMARY KEY,
                    failures integer NOT NULL,
                    last_failure_at timestamptz NOT NULL,
                    window_start timestamptz NOT NULL,
                    window_failures integer NOT NULL);

                CREATE TABLE tweet (
                    id bigserial PRIMARY KEY,
                    author_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    text text NOT NULL,
                    created_at timestamptz NOT NULL,
                    idempotency_key text,
                    -- A reply keeps the id it answers once that is deleted (a tombstone keeps its place): no
                    -- foreign key. A repost goes with its original.
                    in_reply_to_id bigint,
                    repost_of_id bigint REFERENCES tweet ON DELETE CASCADE,
                    likes_count integer NOT NULL DEFAULT 0,
                    reposts_count integer NOT NULL DEFAULT 0,
                    replies_count integer NOT NULL DEFAULT 0,
                    search tsvector GENERATED ALWAYS AS (twitterd_search_text(text)) STORED);
                CREATE INDEX tweet_author_id ON tweet (author_id, id);
                CREATE UNIQUE INDEX tweet_idempotency ON tweet (author_id, idempotency_key)
                    WHERE idempotency_key IS NOT NULL;
                CREATE INDEX tweet_reply ON tweet (in_reply_to_id) WHERE in_reply_to_id IS NOT NULL;
                CREATE UNIQUE INDEX tweet_repost ON tweet (repost_of_id, author_id) WHERE repost_of_id IS NOT NULL;
                CREATE INDEX tweet_search ON tweet USING gin (search);

                CREATE TABLE tweet_tombstone (
                    id bigint PRIMARY KEY,
                    in_reply_to_id bigint);
                CREATE INDEX tweet_tombstone_reply ON tweet_tombstone (in_reply_to_id);

                CREATE TABLE follow (
                    id bigserial PRIMARY KEY,
                    follower_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    followee_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (follower_id, followee_id));
                CREATE INDEX follow_followee_id ON follow (followee_id, id);
                CREATE INDEX follow_follower_id ON follow (follower_id, id);

                CREATE TABLE tweet_like (
                    id bigserial PRIMARY KEY,
                    tweet_id bigint NOT NULL REFERENCES tweet ON DELETE CASCADE,
                    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (tweet_id, user_id));
                CREATE INDEX tweet_like_tweet_id ON tweet_like (tweet_id, id);
                CREATE INDEX tweet_like_user ON tweet_like (user_id);

                CREATE TABLE tweet_mention (
                    tweet_id bigint NOT NULL REFERENCES tweet ON DELETE CASCADE,
                    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    PRIMARY KEY (tweet_id, user_id));
                CREATE INDEX tweet_mention_user ON tweet_mention (user_id);

                CREATE TABLE tweet_tag (
                    tag text NOT NULL,
                    tweet_id bigint NOT NULL REFERENCES tweet ON DELETE CASCADE,
                    author_id bigint NOT NULL,
                    created_at timestamptz NOT NULL,
                    PRIMARY KEY (tag, tweet_id));
                CREATE INDEX tweet_tag_created_at ON tweet_tag (created_at);
                CREATE INDEX tweet_tag_tweet ON tweet_tag (tweet_id);

                CREATE TABLE report (
                    id bigserial PRIMARY KEY,
                    reporter_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    -- The account reported, or the tweet's author; a report goes with either account.
                    account_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    -- Kept when the tweet is deleted: the report stays readable.
                    tweet_id bigint,
                    reason text NOT NULL,
                    status text NOT NULL DEFAULT 'open',
                    created_at timestamptz NOT NULL,
                    note text,
                    resolved_by text,
                    resolved_at timestamptz);
                CREATE INDEX report_status_id ON report (status, id);
                CREATE INDEX report_reporter ON report (reporter_id);
                CREATE INDEX report_account ON report (account_id);

                CREATE TABLE notification (
                    id bigserial PRIMARY KEY,
                    recipient_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    type text NOT NULL,
                    actor_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    -- Deleting the reply, the mention or the repost withdraws its notification with it.
                    tweet_id bigint REFERENCES tweet ON DELETE CASCADE,
                    report_id bigint REFERENCES report ON DELETE CASCADE,
                    created_at timestamptz NOT NULL);
                CREATE INDEX notification_recipient_id ON notification (recipient_id, id);
                CREATE INDEX notification_actor ON notification (actor_id);
                CREATE INDEX notification_tweet ON notification (tweet_id);
                CREATE INDEX notification_report ON notification (report_id);

                CREATE TABLE notification_marker (
                    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
                    read_up_to bigint NOT NULL);

                CREATE TABLE mute (
                    id bigserial PRIMARY KEY,
                    muter_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    muted_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (muter_id, muted_id));
                CREATE INDEX mute_muter_id ON mute (muter_id, id);
                CREATE INDEX mute_muted ON mute (muted_id);

                CREATE TABLE block (
                    id bigserial PRIMARY KEY,
                    blocker_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    blocked_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (blocker_id, blocked_id));
                CREATE INDEX block_blocker_id ON block (blocker_id, id);
                CREATE INDEX block_blocked ON block (blocked_id);

                -- Names, not ids: the record outlives the accounts it names.
                CREATE TABLE audit_entry (
                    id bigserial PRIMARY KEY,
                    actor text NOT NULL,
                    action text NOT NULL,
                    target text NOT NULL,
                    reason text,
                    created_at timestamptz NOT NULL);

                CREATE TABLE reserved_username (
                    username_key text PRIMARY KEY,
                    until timestamptz NOT NULL);

                CREATE TABLE password_reset (
                    user_id bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
                    code_hash bytea NOT NULL,
                    expires_at timestamptz NOT NULL);

                -- Every ordered write's events, in commit order (ids are given out under the ordering lock): how
                -- each daemon learns what the others committed, and catches up after a missed notification.
                CREATE TABLE commit_event (
                    id bigserial PRIMARY KEY,
                    origin text NOT NULL,
                    events text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now());

                CREATE TABLE rate_bucket (
                    user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
                    action text NOT NULL,
                    tokens double precision NOT NULL,
                    updated_at timestamptz NOT NULL,
                    PRIMARY KEY (user_id, action));
                """),
        Migration(
            version: 2, name: "roles belong to accounts, peer links say when they were made",
            sql: """
                ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'user';
                ALTER TABLE peer_link ADD COLUMN linked_at timestamptz;
                """),
        Migration(
            version: 3, name: "signup rate buckets per local user",
            sql: """
                -- Keyed by the kernel's uid, not by an account: signups are limited per local user.
                CREATE TABLE signup_bucket (
                    uid bigint PRIMARY KEY,
                    tokens double precision NOT NULL,
                    updated_at timestamptz NOT NULL);
                """),
        Migration(
            version: 4, name: "one vocabulary with the SQLite store: plural tables",
            sql: """
                -- Both stores name every table and column alike (snake_case, plural tables), so a query reads the
                -- same in either and migrate-data copies without a map. Indexes keep their names.
                ALTER TABLE token RENAME TO tokens;
                ALTER TABLE peer_link RENAME TO peer_links;
                ALTER TABLE login_throttle RENAME TO login_throttles;
                ALTER TABLE tweet RENAME TO tweets;
                ALTER TABLE tweet_tombstone RENAME TO tweet_tombstones;
                ALTER TABLE follow RENAME TO follows;
                ALTER TABLE tweet_like RENAME TO tweet_likes;
                ALTER TABLE tweet_mention RENAME TO tweet_mentions;
                ALTER TABLE tweet_tag RENAME TO tweet_tags;
                ALTER TABLE report RENAME TO reports;
                ALTER TABLE notification RENAME TO notifications;
                ALTER TABLE notification_marker RENAME TO notification_markers;
                ALTER TABLE mute RENAME TO mutes;
                ALTER TABLE block RENAME TO blocks;
                ALTER TABLE audit_entry RENAME TO audit_entries;
                ALTER TABLE reserved_username RENAME TO reserved_usernames;
                ALTER TABLE password_reset RENAME TO password_resets;
                ALTER TABLE commit_event RENAME TO commit_events;
                ALTER TABLE rate_bucket RENAME TO rate_buckets;
                ALTER TABLE signup_bucket RENAME TO signup_buckets;
                """),
        Migration(
            version: 5, name: "direct messages",
            sql: """
                -- Texts are sealed before they reach a store: sealed_text holds nonce and ciphertext, NULL once the
                -- sender deleted the message (its row stays as the placeholder). members_key finds the conversation
                -- of exactly the accounts a `to` names.
                CREATE TABLE conversations (
                    id bigserial PRIMARY KEY,
                    members_key text NOT NULL UNIQUE,
                    created_at timestamptz NOT NULL,
                    updated_at timestamptz NOT NULL,
                    last_message_id bigint NOT NULL DEFAULT 0);
                CREATE TABLE conversation_members (
                    conversation_id bigint NOT NULL REFERENCES conversations ON DELETE CASCADE,
                    user_id bigint NOT NULL,
                    joined_after_id bigint NOT NULL DEFAULT 0,
                    last_read_id bigint NOT NULL DEFAULT 0,
                    left_at timestamptz,
                    PRIMARY KEY (conversation_id, user_id));
                CREATE INDEX conversation_members_user_id ON conversation_members (user_id, conversation_id);
                -- Ids are given out under the message order lock, so they are in commit order.
                CREATE TABLE messages (
                    id bigserial PRIMARY KEY,
                    conversation_id bigint NOT NULL REFERENCES conversations ON DELETE CASCADE,
                    sender_id bigint NOT NULL,
                    sealed_text bytea,
                    created_at timestamptz NOT NULL,
                    idempotency_key text);
                CREATE INDEX messages_conversation_id ON messages (conversation_id, id);
                CREATE INDEX messages_sender_id ON messages (sender_id, idempotency_key);
                CREATE TABLE message_settings (
                    user_id bigint PRIMARY KEY,
                    messages_from text NOT NULL);
                -- Every send's events, in commit order: how each daemon delivers the others' messages live.
                CREATE TABLE message_events (
                    id bigserial PRIMARY KEY,
                    origin text NOT NULL,
                    events text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now());
                """),
        Migration(
            version: 6, name: "bookmarks, pinned tweets",
            sql: """
                -- Private to their owner; a bookmark goes with its tweet and with either account. A pin too: a
                -- deleted tweet is pinned no more.
                CREATE TABLE bookmarks (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    tweet_id bigint NOT NULL REFERENCES tweets(id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (user_id, tweet_id));
                CREATE INDEX bookmarks_user_id ON bookmarks (user_id, id);
                CREATE INDEX bookmarks_tweet_id ON bookmarks (tweet_id);
                CREATE TABLE pinned_tweets (
                    user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    tweet_id bigint NOT NULL REFERENCES tweets(id) ON DELETE CASCADE,
                    pinned_at timestamptz NOT NULL);
                CREATE INDEX pinned_tweets_tweet_id ON pinned_tweets (tweet_id);
                """),
        Migration(
            version: 7, name: "quotes",
            sql: """
                -- A quote keeps the id it quotes once that is deleted (it shows as unavailable): no foreign key.
                ALTER TABLE tweets ADD COLUMN quote_of bigint;
                ALTER TABLE tweets ADD COLUMN quotes_count integer NOT NULL DEFAULT 0;
                CREATE INDEX tweets_quote_of ON tweets (quote_of, id) WHERE quote_of IS NOT NULL;
                """),
        Migration(
            version: 8, name: "lists",
            sql: """
                -- A list goes with its owner, a membership with the list and with the member; members_count is
                -- the rows, moved by every write that adds or takes one (ListRule), the deletion of an account
                -- included, under the list's row lock.
                CREATE TABLE lists (
                    id bigserial PRIMARY KEY,
                    owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    name text NOT NULL,
                    description text NOT NULL DEFAULT '',
                    is_private boolean NOT NULL DEFAULT false,
                    members_count integer NOT NULL DEFAULT 0,
                    created_at timestamptz NOT NULL);
                CREATE INDEX lists_owner_id ON lists (owner_id, id);
                CREATE TABLE list_members (
                    id bigserial PRIMARY KEY,
                    list_id bigint NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
                    member_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (list_id, member_id));
                CREATE INDEX list_members_list_id ON list_members (list_id, id);
                CREATE INDEX list_members_member_id ON list_members (member_id);
                """),
        Migration(
            version: 9, name: "daemons acknowledge what withdraws access",
            sql: """
                -- Each daemon's heartbeat: what it has delivered of the commit log, when it was last seen
                -- (ReadLease). A commit that withdraws access is marked, and answered once every daemon seen
                -- lately has delivered it.
                CREATE TABLE daemons (
                    origin text PRIMARY KEY,
                    seen_at timestamptz NOT NULL,
                    applied bigint NOT NULL);
                ALTER TABLE commit_events ADD COLUMN withdraws_access boolean NOT NULL DEFAULT false;
                CREATE INDEX commit_events_withdraws_access ON commit_events (id) WHERE withdraws_access;
                """),
        Migration(
            version: 10, name: "a uid is keyed by its host; a peer session remembers its link",
            sql: """
                -- A uid is a person only on its own machine, and daemons of several hosts share this database: peer
                -- links and signup buckets are keyed by (host, uid). The migration cannot know the machine it runs
                -- for, so existing rows get host '', which the first daemon to start claims (HostClaim). A session
                -- a peer login minted names its link (peer_host, peer_uid), so unlinking the uid ends it.
                ALTER TABLE peer_links ADD COLUMN host text NOT NULL DEFAULT '';
                ALTER TABLE peer_links DROP CONSTRAINT peer_link_pkey;
                ALTER TABLE peer_links ADD PRIMARY KEY (host, uid);
                ALTER TABLE signup_buckets ADD COLUMN host text NOT NULL DEFAULT '';
                ALTER TABLE signup_buckets DROP CONSTRAINT signup_bucket_pkey;
                ALTER TABLE signup_buckets ADD PRIMARY KEY (host, uid);
                ALTER TABLE tokens ADD COLUMN peer_host text;
                ALTER TABLE tokens ADD COLUMN peer_uid bigint;
                """),
        Migration(
            // A suspension now takes the account's places in lists out of their counters, as it does its likes
            // and replies (Contributions); lists with a member suspended before this counted it.
            version: 11, name: "a list's members_count leaves out its suspended members",
            sql: """
                UPDATE lists SET members_count = (
                    SELECT count(*) FROM list_members JOIN users ON users.id = list_members.member_id
                    WHERE list_members.list_id = lists.id AND users.suspended_at IS NULL);
                """),
        Migration(
            // Sends are commits now, logged in commit_events with every other event (CommitEvent.message). The old
            // log is dropped rather than left: no daemon of this version prunes it or purges a deleted message's
            // sealed text from it, so what it holds would stay for good. Its entries are at most an hour of sends
            // already delivered. An older twitterd does not run on a newer schema (OPERATIONS.md, "Migrations").
            version: 12, name: "one commit log: sends in commit_events, message_events dropped",
            sql: """
                DROP TABLE message_events;
                -- The purge of a deleted message's entries (MessageLogPurge) reads only the sends' entries.
                CREATE INDEX commit_events_sends ON commit_events (id) WHERE events LIKE '[{"sent":%';
                """),
    ]
}
