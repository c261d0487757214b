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

        /// Whether this is the rendering of `answer` in `context`.
        func renders(_ answer: [UInt8], in context: String) -> Bool {
            self.context == context && AnswerRenderings.same(self.answer, answer)
        }
    }

    private struct State: Sendable {
        /// By key: the renderings whose answers share it, oldest first.
        var kept: [Int: [Kept]] = [:]
        var byteCount = 0

        /// Drops the oldest rendering of the bucket at `key`.
        mutating func dropOldest(at key: Int) {
            guard var bucket = kept.removeValue(forKey: key), !bucket.isEmpty else { return }
            let dropped = bucket.removeFirst()
            byteCount -= dropped.byteCount
            if !bucket.isEmpty { kept[key] = bucket }
        }
    }

    /// How many answers one key holds: past it, a key's oldest rendering is dropped. Answers that share a key
    /// (readers whose pages differ in a mark the key does not sample) are each kept, up to this many.
    static var bucketSize: Int { 8 }

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
        if let bucket = state.withLock({ $0.kept[key] }),
            let kept = bucket.last(where: { $0.renders(answer, in: context) })
        {
            return kept.rendering
        }
        let rendering = try render()
        let entry = Kept(answer: answer, context: context, rendering: rendering)
        guard entry.byteCount <= byteBudget else { return rendering }
        state.withLock { state in
            // Another request may have kept the same answer meanwhile: that one stays.
            let bucket = state.kept[key] ?? []
            guard !bucket.contains(where: { $0.renders(answer, in: context) }) else { return }
            if bucket.count >= Self.bucketSize { state.dropOldest(at: key) }
            while state.byteCount + entry.byteCount > byteBudget, let other = state.kept.first?.key {
                state.dropOldest(at: other)
            }
            state.kept[key, default: []].append(entry)
            state.byteCount += entry.byteCount
        }
        return rendering
    }

    /// How many renderings are kept, and their bytes with their answers'.
    var usage: (count: Int, byteCount: Int) {
        state.withLock { state in (state.kept.values.reduce(0) { $0 + $1.count }, state.byteCount) }
    }

    /// The answer's key: its length, its first and last 64 bytes and 16 words spread between them, and the context,
    /// by Swift's `Hasher`.
    ///
    /// A sample, not every byte: mixing the whole answer was 23,700 instructions of a kept home page's 234,000
    /// (callgrind, bench/instructions.sh), and `Hasher` over it (SipHash) more. The key only finds a bucket:
    /// `same` compares the bytes, so answers sharing a key (readers whose pages differ in a mark between the
    /// samples, or an answer crafted to) are kept side by side, up to `bucketSize`, never shown one for another.
    static func key(_ answer: [UInt8], _ context: String) -> Int {
        var hasher = Hasher()
        hasher.combine(answer.count)
        answer.withUnsafeBytes { bytes in
            let edge = 64
            guard bytes.count > 2 * edge + 8 else {
                hasher.combine(bytes: bytes)
                return
            }
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<edge]))
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - edge)...]))
            let between = bytes.count - 2 * edge - 8
            let samples = 16
            for sample in 0..<samples {
                let offset = edge + between * sample / (samples - 1)
                hasher.combine(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
        }
        hasher.combine(context)
        return hasher.finalize()
    }

    fileprivate static func same(_ kept: [UInt8], _ answer: [UInt8]) -> Bool {
        guard kept.count == answer.count else { return false }
        return kept.withUnsafeBytes { kept in
            answer.withUnsafeBytes { answer in
                guard let keptBytes = kept.baseAddress, let answerBytes = answer.baseAddress else { return true }
                return memcmp(keptBytes, answerBytes, kept.count) == 0
            }
        }
    }
}
