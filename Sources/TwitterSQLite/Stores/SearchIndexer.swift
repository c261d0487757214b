import GRDB

/// Keeps the text index `tweet_search` behind the tweet table, off the posts' commit path.
///
/// Written by a trigger in every post's transaction, the index cost the one writer thread about 40 µs a post
/// and halved durable posts a second (docs/BENCHMARKS.md, "Search"). Now posts commit without it, and once
/// `lagBeforeIndexing` tweets wait past the mark (`search_index_marks.indexed_through`) the writer indexes them
/// in one transaction right after a batch of posts: FTS5 writes one segment per transaction, so indexing a
/// thousand tweets at once costs each a fraction of what a batch of a hundred did. Search reads the tweets
/// past the mark from the tweet table and matches them with `SearchMatcher` (`SearchStore`), so a post is
/// still found the moment it is answered; the lag only moves work from the index to that short scan.
///
/// Tweet ids only grow (AUTOINCREMENT) and SQLite has one writer, so every tweet at or below the largest id a
/// write transaction sees is already committed: the mark never passes a tweet it has not indexed.
enum SearchIndexer {
    /// How many tweets may wait past the mark before a commit indexes them. Search scans at most this many
    /// plus one batch of posts (`PostQueue.maximumPosts`) from the tweet table.
    static let lagBeforeIndexing = 1024

    /// The most tweets indexed in one transaction, so a long lag (a bulk load) is caught up in steps.
    static let chunk: Int64 = 8192

    /// The last tweet id the index holds, as the transaction of `db` sees it.
    static func indexedThrough(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT indexed_through FROM search_index_marks")) ?? 0
    }

    /// Called on the writer, outside a transaction, once a commit's posts are answered: indexes the waiting
    /// tweets in a transaction of their own when there are enough of them. Two reads when there are not.
    static func afterCommit(_ db: Database) throws {
        let waiting = try newest(db) - indexedThrough(db)
        guard waiting >= lagBeforeIndexing else { return }
        try db.inTransaction {
            try indexWaiting(db, atMost: chunk)
            return .commit
        }
    }

    /// Indexes every tweet past the mark, a chunk a transaction: at start-up, for what a bulk load or a
    /// crash between a commit and its indexing left.
    static func catchUp(_ writer: any DatabaseWriter) throws {
        while try writer.write({ try indexWaiting($0, atMost: chunk) }) {}
    }

    /// Indexes up to `limit` tweets past the mark in the transaction of `db` (a bulk load indexes its own rows
    /// in its own transactions); returns whether more are waiting.
    @discardableResult
    static func indexWaiting(_ db: Database, atMost limit: Int64 = .max) throws -> Bool {
        let mark = try indexedThrough(db)
        let newest = try newest(db)
        guard newest > mark else { return false }
        let last = newest - mark > limit ? mark + limit : newest
        try db.execute(
            sql: "INSERT INTO tweet_search(rowid, text) SELECT id, text FROM tweets WHERE id > ? AND id <= ?",
            arguments: [mark, last])
        try db.execute(sql: "UPDATE search_index_marks SET indexed_through = ?", arguments: [last])
        return last < newest
    }

    private static func newest(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM tweets")) ?? 0
    }
}
