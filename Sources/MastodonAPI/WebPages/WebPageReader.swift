import JSONRPC
import TwitterAPI
import TwitterCore

/// Reads what a route shows through the layer's `web.*` methods and renders it.
struct WebPageReader {
    let caller: any MastodonCaller
    let view: WebTweetView

    /// How many posts a page holds.
    static let pageSize = 20

    func page(_ route: WebPages.Route, maxID: Int64?) async throws -> WebPage {
        switch route {
        case .home: try await home(maxID: maxID)
        case .profile(let username): try await profile(username, maxID: maxID)
        case .tweet(let username, let id): try await tweet(id, by: username)
        case .tag(let name): try await tagged(name, maxID: maxID)
        }
    }

    private func home(maxID: Int64?) async throws -> WebPage {
        let page = try await caller.call(API.Web.timeline, .init(maxId: maxID, limit: Self.pageSize))
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

    private func profile(_ username: String, maxID: Int64?) async throws -> WebPage {
        let user = try await caller.call(API.Web.user, .init(username: username))
        let page = try await caller.call(
            API.Web.timeline, .init(username: user.username, maxId: maxID, limit: Self.pageSize))
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

    private func tweet(_ id: Int64, by username: String) async throws -> WebPage {
        let thread = try await caller.call(API.Web.thread, .init(id: id))
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

    private func tagged(_ tag: String, maxID: Int64?) async throws -> WebPage {
        let page = try await caller.call(API.Web.timeline, .init(tag: tag, maxId: maxID, limit: Self.pageSize))
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
