import Foundation
import TwitterCore

/// One tweet as an `<article>`: its author, its date (linking to its own page), its text with links, a quote
/// it holds, and its counts. A repost shows the original with a note of who reposted it.
struct WebTweetView {
    /// Links to accounts and tags start with it.
    let origin: String
    /// The moment the human dates are counted from.
    let now: Date

    /// The article of `tweet`; `role` is a class beside `tweet` (`focus`, `reply`).
    func html(_ tweet: Tweet, role: String? = nil) -> String {
        var note = ""
        var shown = tweet
        if let original = tweet.repostOf {
            note = #"<p class="note">↻ "# + userLink(tweet.author.username) + " reposted</p>"
            shown = original
        }
        let classes = ["tweet", role].compactMap(\.self).joined(separator: " ")
        let link = StatusContent.escaped("/@\(shown.author.username)/\(shown.id)")
        var html = #"<article class="\#(classes)" id="t\#(shown.id)">"# + note
        html += #"<div class="meta">"# + userLink(shown.author.username, bold: true)
        html += #"<a href="\#(link)"><time datetime="\#(WebDate.machine(shown.createdAt))">"#
        html += WebDate.human(shown.createdAt, now: now) + "</time></a></div>"
        html += #"<div class="content">"# + StatusContent.html(shown.text, entities: shown.entities, origin: origin)
        html += "</div>"
        switch shown.quoted {
        case .tweet(let quoted)?:
            html += #"<blockquote class="quoted"><div class="meta">"# + userLink(quoted.author.username, bold: true)
            html += #"<a href="\#(StatusContent.escaped("/@\(quoted.author.username)/\(quoted.id)"))">"#
            html += WebDate.human(quoted.createdAt, now: now) + "</a></div>"
            html += StatusContent.html(quoted.text, entities: quoted.entities, origin: origin) + "</blockquote>"
        case .unavailable?:
            html += #"<blockquote class="quoted gone">This post is unavailable.</blockquote>"#
        case nil:
            break
        }
        let counts = shown.counts
        html += #"<ul class="stats"><li>\#(counts.replies) replies</li><li>\#(counts.reposts) reposts</li>"#
        html += "<li>\(counts.likes) likes</li></ul></article>"
        return html
    }

    /// A link to `username`'s page.
    func userLink(_ username: String, bold: Bool = false) -> String {
        let name = StatusContent.escaped(username)
        let attributes = bold ? " class=\"author\"" : ""
        return "<a href=\"/@\(name)\"\(attributes)>@\(name)</a>"
    }
}
