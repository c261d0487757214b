import Foundation
import JSONRPC
import Synchronization

/// What a rendering kept by `AnswerRenderings` weighs against its budget.
protocol KeptRendering: Sendable {
    /// The bytes it holds.
    var byteCount: Int { get }
}

/// Renderings kept by the layer's answers they were made from: the one home of the HTTP front's fast path, which
/// the timelines' Statuses (`StatusPageRenderings`) and the public web pages (`WebPageRenderings`) share.
///
/// What the layer answers stays the same bytes until a commit changes it (the read model keeps each page's bytes
/// and writes a reader's marks into them), and a rendering depends on nothing but those bytes and its context (the
/// origin its URLs start with, and whatever else the caller names). So the rendering is kept by its answer: the
/// same answer asked again is a hash, a comparison with the kept answer, and a copy; any change (a new tweet, a
/// count, the reader's like) is another answer, rendered afresh. Decoding the answer and rendering it again had
/// been about half of `GET /api/v1/timelines/home`'s time and a third of `GET /@NAME`'s (perf,
/// bench/analysis.md); `StatusPageRenderingsTests` and `WebPagesTests` hold the kept renderings against fresh ones.
///
/// Bounded by bytes, answers and renderings together: past `byteBudget`, kept renderings are dropped to make room.
final class AnswerRenderings<Rendering: KeptRendering>: Sendable {
    private struct Kept: Sendable {
        let answer: [UInt8]
        let context: String
        let rendering: Rendering

        var byteCount: Int { answer.count + context.utf8.count + rendering.byteCount }
    }

    private struct State: Sendable {
        var kept: [Int: Kept] = [:]
        var byteCount = 0
    }

    /// How many bytes the kept answers and renderings may take.
    let byteBudget: Int
    private let state = Mutex(State())

    init(byteBudget: Int = 8 << 20) {
        self.byteBudget = byteBudget
    }

    /// The rendering of `answer` in `context`: the kept one, or `render`'s, kept.
    func rendering(of answer: [UInt8], context: String, render: () throws(RPCError) -> Rendering) throws(RPCError)
        -> Rendering
    {
        let key = Self.key(answer, context)
        if let kept = state.withLock({ $0.kept[key] }), kept.context == context, Self.same(kept.answer, answer) {
            return kept.rendering
        }
        let rendering = try render()
        let entry = Kept(answer: answer, context: context, rendering: rendering)
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

    private static func key(_ answer: [UInt8], _ context: String) -> Int {
        var hasher = Hasher()
        answer.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(context)
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
