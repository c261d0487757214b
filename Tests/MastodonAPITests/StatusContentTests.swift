import Testing
import TwitterCore

@testable import MastodonAPI

/// A tweet's text as HTML: escaped, paragraphs and line breaks, links only where the entities are.
struct StatusContentTests {
    @Test func aScriptTagIsTextAndEntitiesAreLinks() {
        let html = StatusContent.html(
            Fixtures.tweet.text, entities: Fixtures.tweet.entities, origin: "http://127.0.0.1:3000")
        #expect(
            html
                == #"<p>hi <span class="h-card" translate="no"><a href="http://127.0.0.1:3000/@bob" class="u-url mention">@<span>bob</span></a></span> &lt;script&gt;x&lt;/script&gt; <a href="http://127.0.0.1:3000/tags/swift" class="mention hashtag" rel="tag">#<span>Swift</span></a> <a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">example.com/a?b=1&amp;c=2</span></a><br>line2</p><p>end</p>"#
        )
    }

    @Test func plainTextWithoutEntitiesIsOnlyEscaped() {
        let html = StatusContent.html(#"a "quoted" & 'single' @nobody"#, entities: TweetEntities(), origin: "http://x")
        #expect(html == "<p>a &quot;quoted&quot; &amp; &#39;single&#39; @nobody</p>")
    }

    @Test func entitiesOutsideTheTextAreIgnored() {
        let entities = TweetEntities(mentions: [.init(username: "bob", start: 2, end: 40)])
        #expect(StatusContent.html("hi @bob", entities: entities, origin: "http://x") == "<p>hi @bob</p>")
    }

    @Test func anEmptyTextIsEmptyContent() {
        #expect(StatusContent.html("", entities: TweetEntities(), origin: "http://x") == "")
    }
}
