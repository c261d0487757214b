import TwitterCore

/// A tweet's text as the HTML `content` Mastodon clients render: the text escaped, paragraphs in `<p>`, a single
/// newline as `<br>`, and the mentions, hashtags and links the tweet's entities found as links with Mastodon's
/// classes (clients style and strip by them).
///
/// Built only from the entities stored with the tweet, never by scanning the text again, so a link is exactly
/// what the daemon recognised; anything else is text, escaped.
enum StatusContent {
    /// The HTML of `text` with `entities`; links to accounts and tags start with `origin`.
    static func html(_ text: String, entities: TweetEntities, origin: String) -> String {
        guard !text.isEmpty else { return "" }
        let scalars = Array(text.unicodeScalars)
        var html = "<p>"
        html.reserveCapacity(text.utf8.count + 16)
        var position = 0
        var spans = self.spans(of: entities)
        spans.sort { $0.start < $1.start }
        var next = 0
        while position < scalars.count {
            while next < spans.count && spans[next].start < position { next += 1 }
            if next < spans.count, spans[next].start == position, spans[next].end <= scalars.count,
                spans[next].end > position
            {
                let span = spans[next]
                let written = String(String.UnicodeScalarView(scalars[span.start..<span.end]))
                html += link(span.kind, written, origin: origin)
                position = span.end
                next += 1
                continue
            }
            let scalar = scalars[position]
            if scalar == "\n" {
                var run = 0
                while position < scalars.count && scalars[position] == "\n" {
                    run += 1
                    position += 1
                }
                html += run > 1 ? "</p><p>" : "<br>"
                continue
            }
            appendEscaped(scalar, to: &html)
            position += 1
        }
        html += "</p>"
        return html
    }

    /// The plain text of a string, escaped for HTML.
    static func escaped(_ text: String) -> String {
        var html = ""
        for scalar in text.unicodeScalars { appendEscaped(scalar, to: &html) }
        return html
    }

    private enum Kind {
        case mention(String)
        case hashtag(String)
        case url(String)
    }

    private struct Span {
        let start: Int
        let end: Int
        let kind: Kind
    }

    private static func spans(of entities: TweetEntities) -> [Span] {
        entities.mentions.map { Span(start: $0.start, end: $0.end, kind: .mention($0.username)) }
            + entities.hashtags.map { Span(start: $0.start, end: $0.end, kind: .hashtag($0.tag)) }
            + entities.urls.map { Span(start: $0.start, end: $0.end, kind: .url($0.url)) }
    }

    private static func link(_ kind: Kind, _ written: String, origin: String) -> String {
        switch kind {
        case .mention(let username):
            let name = written.hasPrefix("@") ? String(written.dropFirst()) : written
            return #"<span class="h-card" translate="no"><a href=""# + escaped(origin + "/@" + username)
                + #"" class="u-url mention">@<span>"# + escaped(name) + "</span></a></span>"
        case .hashtag(let tag):
            let name = written.hasPrefix("#") ? String(written.dropFirst()) : written
            return #"<a href=""# + escaped(origin + "/tags/" + tag.lowercased())
                + #"" class="mention hashtag" rel="tag">#<span>"# + escaped(name) + "</span></a>"
        case .url(let url):
            let scheme = url.hasPrefix("https://") ? "https://" : url.hasPrefix("http://") ? "http://" : ""
            return #"<a href=""# + escaped(url) + #"" target="_blank" rel="nofollow noopener" translate="no">"#
                + #"<span class="invisible">"# + scheme + #"</span><span class="">"#
                + escaped(String(written.dropFirst(scheme.count))) + "</span></a>"
        }
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to html: inout String) {
        switch scalar {
        case "&": html += "&amp;"
        case "<": html += "&lt;"
        case ">": html += "&gt;"
        case "\"": html += "&quot;"
        case "'": html += "&#39;"
        default: html.unicodeScalars.append(scalar)
        }
    }
}
