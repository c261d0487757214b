import TwitterCore

/// The read model's per-reader marks: what each recent reader has liked and reposted, so that every answer
/// carries `likedByMe` and `repostedByMe` without a query per page.
typealias ReaderMarksCache = KeyedCommitCache<ReaderMarks>

extension KeyedCommitCache where Value == ReaderMarks {
    /// Readers kept; past it the cache starts again, so a burst of one-off readers cannot grow it without end.
    static let readerCapacity = 10_000

    /// An empty cache of readers' marks.
    static func readerMarks() -> ReaderMarksCache {
        ReaderMarksCache(
            capacity: readerCapacity, keys: { ReaderMarks.reader(changedBy: $0).map { [$0] } ?? [] },
            update: { marks, event, reader in marks.apply(event, reader: reader) })
    }

    /// The marks of `reader`, loading them from `store` when they are not in memory.
    func marks(of reader: Int64, store: any LikeStoring) async throws -> ReaderMarks {
        try await value(of: reader) { try await store.marks(of: reader) }
    }
}
