import Testing

@testable import MastodonAPI

/// The key a kept rendering is found by: the same answer and context give the same key, and an answer that
/// differs in any one byte, or only in its length, gives another (each step of the mix is a bijection, so a
/// difference once in never cancels out).
@Suite struct AnswerRenderingsKeyTests {
    typealias Renderings = AnswerRenderings<StatusPageRendering>

    @Test func theSameAnswerGivesTheSameKeyAndAnyOneByteAnotherOne() {
        let answer = Array(#"{"tweets":[{"id":12,"likedByMe":false,"text":"hello"}],"newestId":12}"#.utf8)
        let key = Renderings.key(answer, "http://localhost")
        #expect(Renderings.key(answer, "http://localhost") == key)
        #expect(Renderings.key(answer, "http://127.0.0.1") != key, "the context is part of the key")
        for index in answer.indices {
            var changed = answer
            changed[index] ^= 0x01
            #expect(Renderings.key(changed, "http://localhost") != key, "byte \(index)")
        }
        #expect(Renderings.key(answer + [0], "http://localhost") != key, "a byte more")
        #expect(Renderings.key(Array(answer.dropLast()), "http://localhost") != key, "a byte less")
        #expect(Renderings.key([], "") == Renderings.key([], ""))
    }
}
