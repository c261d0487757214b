import Synchronization
import TwitterCore

/// The read model's fourth layer: what each recent reader has liked and reposted, so that every answer carries
/// `likedByMe` and `repostedByMe` without a query per page. Loaded from the store on a reader's first read,
/// then kept current by the same commits as the rest of the model.
final class ReaderMarksCache: Sendable {
    private struct State {
        var marks: [Int64: ReaderMarks] = [:]
        /// Counts the committed events that changed anyone's marks: a load that raced one is not kept.
        var generation = 0
    }

    /// Readers kept; past it the cache starts again, so a burst of one-off readers cannot grow it without end.
    static let capacity = 10_000

    private let state = Mutex(State())

    /// The marks of `reader` if they are in memory.
    func cached(_ reader: Int64) -> ReaderMarks? {
        state.withLock { $0.marks[reader] }
    }

    /// The marks of `reader`, loading them from `store` when they are not in memory.
    func marks(of reader: Int64, store: any LikeStoring) async throws -> ReaderMarks {
        if let marks = cached(reader) { return marks }
        let generation = state.withLock { $0.generation }
        let loaded = try await store.marks(of: reader)
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.marks.count >= Self.capacity { state.marks = [:] }
            state.marks[reader] = loaded
        }
        return loaded
    }

    /// Applies committed events to the readers in memory.
    func apply(_ events: [TweetEvent]) {
        state.withLock { state in
            for event in events {
                guard let reader = ReaderMarks.reader(changedBy: event) else { continue }
                state.generation += 1
                state.marks[reader]?.apply(event, reader: reader)
            }
        }
    }
}
