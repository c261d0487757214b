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
