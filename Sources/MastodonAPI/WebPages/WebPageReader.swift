import JSONRPC
import TwitterAPI
import TwitterCore

/// Reads what a route shows through the layer's `web.*` methods, and renders it: in two steps, so that a page
/// whose answers were rendered before is the kept rendering (`WebPageRenderings`).
struct WebPageReader {
    let caller: any MastodonCaller
    let view: WebTweetView

    /// How many posts a page holds.
    static let pageSize = 20

    /// The layer's answers the page of `route` is made from, as it wrote them, in the order `page` reads them.
    func answers(_ route: WebPages.Route, maxID: Int64?) async throws(RPCError) -> [[UInt8]] {
        switch route {
        case .home:
            [try await caller.encodedCall(API.Web.timeline, .init(maxId: maxID, limit: Self.pageSize))]
        case .profile(let username):
            [
                try await caller.encodedCall(API.Web.user, .init(username: username)),
                try await caller.encodedCall(
                    API.Web.timeline, .init(username: username, maxId: maxID, limit: Self.pageSize)),
            ]
        case .tweet(_, let id):
            [try await caller.encodedCall(API.Web.thread, .init(id: id))]
        case .tag(let name):
            [try await caller.encodedCall(API.Web.timeline, .init(tag: name, maxId: maxID, limit: Self.pageSize))]
        }
    }

    /// The page of `route` made from its `answers`.
    func page(_ route: WebPages.Route, maxID: Int64?, answers: [[UInt8]]) throws(RPCError) -> WebPage {
        guard answers.count == (route.isProfile ? 2 : 1) else {
            throw RPCError(code: -32603, message: "A web page's answers", kind: "internal_error")
        }
        switch route {
        case .home:
            return home(try API.Web.timeline.decodedResult(answers[0]), maxID: maxID)
        case .profile:
            return profile(
                try API.Web.user.decodedResult(answers[0]), try API.Web.timeline.decodedResult(answers[1]),
                maxID: maxID)
        case .tweet(let username, let id):
            return try tweet(try API.Web.thread.decodedResult(answers[0]), id: id, by: username)
        case .tag(let name):
            return tagged(name, try API.Web.timeline.decodedResult(answers[0]), maxID: maxID)
        }
    }

    private func home(_ page: API.Tweets.TweetPage, maxID: Int64?) -> WebPage {
        guard !page.tweets.isEmpty || maxID != nil else {
            return WebPage(
                title: "twitterd", summary: "A small place to post short notes and follow people.", path: "/",
                body: #"<section class="empty"><h1>Nothing posted yet</h1><p>This is a twitterd server: people "#
                    + "post short notes here and follow each other. Its posts show on this page once there are "
                    + "some.</p></section>")
        }
        return WebPage(
            title: "Everyone’s posts", summary: "The latest public posts on this twitterd server.",
            path: maxID.map { "/?max_id=\($0)" } ?? "/",
            body: #"<h1 class="section">Everyone’s posts</h1>"# + list(page, path: "/"))
    }

    private func profile(_ user: UserOverview, _ page: API.Tweets.TweetPage, maxID: Int64?) -> WebPage {
        let name = [user.firstName, user.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        let shownName = name.isEmpty ? user.username : name
        var body = #"<section class="profile"><h1>"# + StatusContent.escaped(shownName) + "</h1>"
        body += #"<div class="handle">@"# + StatusContent.escaped(user.username) + "</div>"
        if !user.bio.isEmpty { body += #"<p class="bio">"# + StatusContent.escaped(user.bio) + "</p>" }
        body += #"<ul class="counts"><li><b>\#(user.tweetsCount)</b> posts</li>"#
        body += "<li><b>\(user.followingCount)</b> following</li><li><b>\(user.followersCount)</b> followers</li>"
        body += "</ul></section>"
        if let pinned = user.pinnedTweet, maxID == nil {
            body += #"<h2 class="section">Pinned</h2>"# + view.html(pinned, role: "pinned")
            body += #"<h2 class="section">Posts</h2>"#
        }
        let path = "/@" + user.username
        body += list(page, path: path)
        let summary = user.bio.isEmpty ? "\(shownName)’s posts on twitterd" : user.bio
        return WebPage(
            title: "\(shownName) (@\(user.username))", summary: summary,
            path: path + (maxID.map { "?max_id=\($0)" } ?? ""), kind: "profile", body: body)
    }

    private func tweet(_ thread: API.Tweets.Thread, id: Int64, by username: String) throws(RPCError) -> WebPage {
        // The path names the author: another name's, or a repost's id, is not this post's page.
        guard thread.tweet.id == id, thread.tweet.author.username.lowercased() == username.lowercased() else {
            throw RPCError(code: -32004, message: "Tweet \(id)", kind: "not_found")
        }
        var body = thread.ancestors.map { entry($0, role: nil) }.joined()
        body += view.html(thread.tweet, role: "focus")
        body += thread.descendants.map { entry($0, role: "reply") }.joined()
        let text = thread.tweet.text
        let excerpt = text.count > 120 ? String(text.prefix(119)) + "…" : text
        return WebPage(
            title: "@\(thread.tweet.author.username): “\(excerpt)”", summary: text,
            path: "/@\(thread.tweet.author.username)/\(id)", kind: "article", body: body)
    }

    private func tagged(_ tag: String, _ page: API.Tweets.TweetPage, maxID: Int64?) -> WebPage {
        let bare = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
        let path = "/tags/" + bare.lowercased()
        var body = #"<h1 class="section">#"# + StatusContent.escaped(bare) + "</h1>"
        body += page.tweets.isEmpty && maxID == nil ? #"<p class="empty">No posts with this tag yet.</p>"# : ""
        body += list(page, path: path)
        return WebPage(
            title: "#\(bare)", summary: "Posts tagged #\(bare) on twitterd",
            path: path + (maxID.map { "?max_id=\($0)" } ?? ""), body: body)
    }

    /// The page's posts, and an "older" link when the page was full (there may be more).
    private func list(_ page: API.Tweets.TweetPage, path: String) -> String {
        var html = page.tweets.map { view.html($0) }.joined()
        if page.tweets.count >= Self.pageSize, let oldest = page.oldestId {
            html += #"<nav class="pages"><a rel="next" href="\#(StatusContent.escaped(path))?max_id=\#(oldest)">"#
            html += "Older posts</a></nav>"
        }
        return html
    }

    private func entry(_ item: API.Tweets.ThreadItem, role: String?) -> String {
        switch item {
        case .tweet(let tweet): view.html(tweet, role: role)
        case .deleted: #"<p class="gone">This post is unavailable.</p>"#
        }
    }
}
