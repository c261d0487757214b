import JSONRPC
import Testing
import TwitterCore

@testable import TwitterServer

/// The derivation that keeps every page under the answer cap whatever other accounts wrote: each kind of page at its
/// largest, of the heaviest items the text rules allow, fits in the default 8 MiB, and a configuration whose
/// tweets could make a page pass its cap is refused.
struct PageWeightTests {
    @Test func everyKindOfPageOfTheHeaviestItemsFitsTheDefaultAnswerCap() {
        let cap = ProtocolLimits.defaultMaximumAnswerBytes
        let defaults = ServerConfiguration(socketPath: "/unused", databasePath: ":memory:")
        for (kind, bytes) in PageWeight.worstPages(tweetCharacters: defaults.tweetMaximumLength) {
            #expect(bytes + 1024 <= cap, "a page of \(kind) may weigh \(bytes) bytes")
        }
    }

    @Test func aConfigurationWhoseLongestTweetsCouldPassTheCapIsRefused() throws {
        var configuration = ServerConfiguration(socketPath: "/unused", databasePath: ":memory:")
        try ConfigurationFile.checkPageWeight(configuration)
        let longest = PageWeight.longestTweet(answeringAtMost: configuration.limits.maximumAnswerBytes)
        #expect(longest >= 280, "Twitter's length fits the default cap")
        configuration.tweetMaximumLength = longest
        try ConfigurationFile.checkPageWeight(configuration)
        let page = PageWeight.worstPages(tweetCharacters: longest).first { $0.kind == "tweets" }?.bytes ?? .max
        #expect(page + 1024 <= configuration.limits.maximumAnswerBytes)
        configuration.tweetMaximumLength = longest + 1
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.checkPageWeight(configuration) }
        configuration.limits.maximumAnswerBytes *= 2
        try ConfigurationFile.checkPageWeight(configuration)
    }
}
