import Foundation
import Testing
import TwitterCore
import TwitterTUI

/// Quotes as the TUI draws them: the quoted tweet boxed under the quote's text, or that it is unavailable, and
/// the `quote` notification.
@Suite struct QuoteRenderTests {
    @Test func aQuoteShowsItsQuotedTweetOrThatItIsUnavailable() {
        var quote = Fixture.tweet(3, "look at this")
        quote.quoteOfID = 1
        quote.quoted = .tweet(Fixture.tweet(1, by: "bob", "the quoted words"))
        quote.counts.quotes = 0
        var hidden = Fixture.tweet(2, "and this")
        hidden.quoteOfID = 9
        hidden.quoted = .unavailable(id: 9)
        var quoted = Fixture.tweet(1, by: "bob", "quoted twice")
        quoted.counts.quotes = 2
        let text = Renderer.render(Fixture.home([quote, hidden, quoted]), width: 80, height: 40).text
        #expect(text.contains("│ @bob · 3h · #1"))
        #expect(text.contains("│ the quoted words"))
        #expect(text.contains("│ [quoted tweet unavailable]"))
        #expect(text.contains("2 replies · 2 quotes"))
    }

    @Test func theQuoteNotificationSaysSo() {
        var state = Fixture.home([])
        let notification = ActivityNotification(
            id: 1, type: .quote, createdAt: Fixture.now, from: .init(username: "bob"),
            tweet: Fixture.tweet(4, by: "bob", "so true"))
        _ = state.apply(.notifications([notification], unread: 1))
        _ = state.handle(.character("2"))
        #expect(Renderer.render(state, width: 80, height: 24).text.contains("@bob quoted your tweet"))
    }
}

/// The `Q` key, offered when the daemon has quotes.
@Suite struct QuoteKeyTests {
    @Test func qQuotesTheSelectedTweetOnlyWhenTheDaemonHasQuotes() {
        var without = Fixture.home([Fixture.tweet(1)])
        #expect(without.handle(.character("Q")).isEmpty)
        #expect(without.editor == nil)
        var state = Fixture.home([Fixture.tweet(1)], capabilities: Capabilities(methods: ["tweets.quotes"]))
        #expect(state.handle(.character("Q")).isEmpty)
        #expect(Renderer.render(state, width: 80, height: 24).text.contains("Quote @alice's #1"))
        #expect(state.handle(.enter) == [.quote(text: "", of: 1)], "the text is optional")
        var quote = Fixture.tweet(2, "")
        quote.quoteOfID = 1
        _ = state.apply(.posted(quote))
        #expect(state.editor == nil)
        #expect(Renderer.render(state, width: 80, height: 24).text.contains("quoted with #2"))
    }
}
