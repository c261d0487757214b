import Testing

@testable import MastodonAPI

/// A kept rendering's compressed form: made once, kept only when it pays, and within what its rendering
/// reserved for it in the budget.
@Suite struct KeptCompressionTests {
    @Test func theCompressedFormIsMadeOnceAndKept() {
        let kept = KeptCompression()
        let body = [UInt8](repeating: 65, count: 1000)
        #expect(kept.known == .unasked)
        var calls = 0
        for _ in 0..<3 {
            let compressed = kept.compressed(body) { bytes in
                calls += 1
                return Array(bytes.prefix(10))
            }
            #expect(compressed == Array(body.prefix(10)))
        }
        #expect(calls == 1)
        #expect(kept.known == .compressed(Array(body.prefix(10))))
    }

    @Test func aFormLargerThanItsReservationIsNotKeptAndTheBodyGoesAsItIs() {
        let body = [UInt8](repeating: 65, count: 1000)
        let kept = KeptCompression()
        var calls = 0
        for _ in 0..<2 {
            let compressed = kept.compressed(body) { bytes in
                calls += 1
                return Array(bytes.prefix(KeptCompression.reservation(for: bytes.count) + 1))
            }
            #expect(compressed == nil)
        }
        #expect(calls == 1, "known not to pay: not tried again")
        #expect(kept.known == .incompressible)

        let failing = KeptCompression()
        #expect(failing.compressed(body) { _ in nil } == nil)
        #expect(failing.known == .incompressible)
    }

    @Test func aStatusPageWeighsItsBodyAndTheReservationForItsCompressedForm() {
        let rendering = StatusPageRendering(body: [UInt8](repeating: 1, count: 4000), newestID: 2, oldestID: 1)
        #expect(rendering.byteCount == 4000 + KeptCompression.reservation(for: 4000))
    }
}
