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

    /// The answer's key: its bytes mixed a word at a time, then seeded with the context by Swift's `Hasher`.
    ///
    /// `Hasher` over the whole answer (SipHash, about 1.5 cycles a byte) was 5 % of a kept home page's samples
    /// (perf at d45d948); a multiply and a shift a word is about a third of that. The key only finds a candidate:
    /// `same` compares the bytes, so two answers sharing a key (by chance, or crafted by someone who can shape an
    /// answer) only take each other's place and are rendered afresh, never shown one for the other.
    static func key(_ answer: [UInt8], _ context: String) -> Int {
        var mixed = UInt64(truncatingIfNeeded: answer.count) ^ 0x9E37_79B9_7F4A_7C15
        answer.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                mixed = (mixed ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                mixed ^= mixed >> 32
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < bytes.count {
                tail = tail << 8 | UInt64(bytes[offset])
                offset += 1
            }
            mixed = (mixed ^ tail) &* 0x9FB2_1C65_1E98_DF25
        }
        var hasher = Hasher()
        hasher.combine(mixed)
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
