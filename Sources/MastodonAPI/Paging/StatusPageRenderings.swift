import Foundation
import JSONRPC
import Synchronization

/// The Statuses of a page of tweets, rendered once per answer of the layer: the one home of the Mastodon API's
/// fast path for timelines.
///
/// A timeline page is the same answer from the layer until a commit changes it (the read model keeps each page's
/// bytes and writes a reader's marks into them), and its Statuses depend on nothing but those bytes and the
/// origin their URLs start with. So the rendering is kept by its answer: a page asked again is a hash, a
/// comparison of the answer with the kept one, and a copy; any change to the page (a new tweet, a count, the
/// reader's like) is another answer, rendered afresh. Decoding the answer into tweets and writing their Statuses
/// again had been about half of `GET /api/v1/timelines/home`'s time (perf, bench/analysis.md);
/// `StatusPageRenderingsTests` holds the kept rendering against a fresh one.
///
/// Bounded by bytes, answers and renderings together: past `byteBudget`, kept renderings are dropped to make room.
final class StatusPageRenderings: Sendable {
    /// A page's Statuses (a JSON array) and the ids its links page from.
    struct Rendering: Sendable {
        let body: [UInt8]
        let newestID: Int64?
        let oldestID: Int64?
    }

    private struct Kept {
        let answer: [UInt8]
        let origin: String
        let rendering: Rendering

        var byteCount: Int { answer.count + rendering.body.count }
    }

    private struct State {
        var kept: [Int: Kept] = [:]
        var byteCount = 0
    }

    /// The renderings every endpoint shares: keyed by the whole answer, so accounts cannot see one another's.
    static let shared = StatusPageRenderings()

    /// How many bytes the kept answers and renderings may take.
    let byteBudget: Int
    private let state = Mutex(State())

    init(byteBudget: Int = 8 << 20) {
        self.byteBudget = byteBudget
    }

    /// The rendering of `answer` for `origin`: the kept one, or `render`'s, kept.
    func rendering(of answer: [UInt8], origin: String, render: () throws(RPCError) -> Rendering) throws(RPCError)
        -> Rendering
    {
        let key = Self.key(answer, origin)
        if let kept = state.withLock({ $0.kept[key] }), kept.origin == origin, Self.same(kept.answer, answer) {
            return kept.rendering
        }
        let rendering = try render()
        let entry = Kept(answer: answer, origin: origin, rendering: rendering)
        guard entry.byteCount <= byteBudget else { return rendering }
        state.withLock { state in
            if let replaced = state.kept.removeValue(forKey: key) { state.byteCount -= replaced.byteCount }
            while state.byteCount + entry.byteCount > byteBudget, let dropped = state.kept.first {
                state.kept.removeValue(forKey: dropped.key)
                state.byteCount -= dropped.value.byteCount
            }
            state.kept[key] = entry
            state.byteCount += entry.byteCount
        }
        return rendering
    }

    /// How many renderings are kept, and their bytes with their answers'.
    var usage: (count: Int, byteCount: Int) {
        state.withLock { ($0.kept.count, $0.byteCount) }
    }

    private static func key(_ answer: [UInt8], _ origin: String) -> Int {
        var hasher = Hasher()
        answer.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(origin)
        return hasher.finalize()
    }

    private static func same(_ kept: [UInt8], _ answer: [UInt8]) -> Bool {
        guard kept.count == answer.count else { return false }
        return kept.withUnsafeBytes { kept in
            answer.withUnsafeBytes { answer in
                guard let keptBytes = kept.baseAddress, let answerBytes = answer.baseAddress else { return true }
                return memcmp(keptBytes, answerBytes, kept.count) == 0
            }
        }
    }
}
