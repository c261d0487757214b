import TwitterCore

/// The read model's per-reader marks: what each recent reader has liked and reposted, so that every answer
/// carries `likedByMe` and `repostedByMe` without a query per page.
typealias ReaderMarksCache = KeyedCommitCache<TweetEvent, ReaderMarks>

extension KeyedCommitCache where Event == TweetEvent, Value == ReaderMarks {
    /// Readers kept; past it the cache starts again, so a burst of one-off readers cannot grow it without end.
    static let readerCapacity = 10_000

    /// An empty cache of readers' marks.
    static func readerMarks() -> ReaderMarksCache {
        ReaderMarksCache(
            capacity: readerCapacity, subject: \.tweetEvent,
            keys: { ReaderMarks.reader(changedBy: $0).map { [$0] } ?? [] },
            update: { marks, event, reader in marks.apply(event, reader: reader) })
    }

    /// The marks of `reader`, loading them from `store` when they are not cached.
    func marks(of reader: Int64, store: any LikeStoring) async throws -> ReaderMarks {
        try await value(of: reader) { try await store.marks(of: reader) }
    }
}
