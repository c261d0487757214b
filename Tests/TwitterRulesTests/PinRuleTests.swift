import Testing
import TwitterCore
import TwitterRules

/// Whose tweet may be pinned, on facts made up here.
struct PinRuleTests {
    @Test func oneOfYourOwnTweetsMayBePinned() throws {
        #expect(try PinRule.decide(7, by: 1, target: PinRule.Target(authorID: 1, isRepost: false)) == 7)
    }

    static let refusals: [(PinRule.Target?, TwitterError.Kind)] = [
        (PinRule.Target(authorID: 2, isRepost: false), .forbidden),
        (PinRule.Target(authorID: 1, isRepost: true), .forbidden),
        (nil, .notFound),
    ]

    @Test(arguments: refusals)
    func someoneElsesTweetARepostOrNoTweetIsRefused(_ target: PinRule.Target?, _ kind: TwitterError.Kind) {
        let error = #expect(throws: TwitterError.self) { try PinRule.decide(7, by: 1, target: target) }
        #expect(error?.kind == kind)
    }
}
