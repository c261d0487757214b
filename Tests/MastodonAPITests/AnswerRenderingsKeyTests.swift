import JSONRPC
import Testing

@testable import MastodonAPI

/// The key a kept rendering is found by, and the buckets that make a shared key harmless: the key samples the
/// answer, so answers that differ between its samples share it, and each must still get its own rendering.
@Suite struct AnswerRenderingsKeyTests {
    typealias Renderings = AnswerRenderings<StatusPageRendering>

    /// A home page's answer of `count` tweets, `liked` the one the reader liked.
    static func answer(tweets count: Int, liked: Int?) -> [UInt8] {
        let tweets = (0..<count).map { #"{"id":\#($0),"likedByMe":\#($0 == liked),"text":"hello"}"# }
        return Array(#"{"tweets":[\#(tweets.joined(separator: ","))],"newestId":\#(count)}"#.utf8)
    }

    @Test func theSameAnswerGivesTheSameKeyAndItsEdgesLengthAndContextAnotherOne() {
        for answer in [Self.answer(tweets: 1, liked: nil), Self.answer(tweets: 40, liked: nil)] {
            let key = Renderings.key(answer, "http://localhost")
            #expect(Renderings.key(answer, "http://localhost") == key)
            #expect(Renderings.key(answer, "http://127.0.0.1") != key, "the context is part of the key")
            for index in [0, 10, answer.count - 1] {
                var changed = answer
                changed[index] ^= 0x01
                #expect(Renderings.key(changed, "http://localhost") != key, "byte \(index)")
            }
            #expect(Renderings.key(answer + [0], "http://localhost") != key, "a byte more")
            #expect(Renderings.key(Array(answer.dropLast()), "http://localhost") != key, "a byte less")
        }
        #expect(Renderings.key([], "") == Renderings.key([], ""))
    }

    /// Readers whose pages differ in one mark between the samples share a key: each is kept and found, and none is
    /// shown another's rendering; past the bucket's size the oldest is rendered afresh.
    @Test func answersSharingAKeyEachKeepTheirOwnRendering() throws {
        let renderings = Renderings()
        let page = Self.answer(tweets: 40, liked: nil)
        let key = Renderings.key(page, "http://localhost")
        // A byte between the samples: changing it keeps the key.
        let unsampled = try #require(
            page.indices.first { index in
                var changed = page
                changed[index] ^= 0x01
                return Renderings.key(changed, "http://localhost") == key
            })
        let sharing = (0...Renderings.bucketSize).map { mark in
            var answer = page
            answer[unsampled] = UInt8(ascii: "a") + UInt8(mark)
            return answer
        }
        #expect(Set(sharing.map { Renderings.key($0, "http://localhost") }) == [key])
        var rendered = 0
        func rendering(_ answer: [UInt8]) throws -> [UInt8] {
            try renderings.rendering(of: answer, context: "http://localhost") { () throws(RPCError) in
                rendered += 1
                return StatusPageRendering(body: answer, newestID: nil, oldestID: nil)
            }.body
        }
        let kept = Array(sharing.prefix(Renderings.bucketSize))
        for answer in kept { #expect(try rendering(answer) == answer) }
        #expect(rendered == kept.count)
        for answer in kept { #expect(try rendering(answer) == answer, "found, not another's") }
        #expect(rendered == kept.count, "each found without rendering again")
        #expect(renderings.usage.count == Renderings.bucketSize)

        #expect(try rendering(sharing[Renderings.bucketSize]) == sharing[Renderings.bucketSize])
        #expect(renderings.usage.count == Renderings.bucketSize, "a full bucket drops its oldest")
        #expect(try rendering(kept[0]) == kept[0])
        #expect(rendered == kept.count + 2, "the dropped one is rendered afresh")
    }
}
