/// One rendered page: what the layout needs besides the body, and the status it is answered with. No HTTP
/// types: `response` makes the transport's answer, so pages are tested without a server.
struct WebPage: Sendable {
    /// 200, or 404 for what is not there (or not on the web).
    var status: Int = 200
    /// The `<title>` and `og:title`.
    var title: String
    /// A line about the page: `<meta name="description">` and `og:description`.
    var summary: String
    /// The page's own path (`/@alice`), which the canonical link and `og:url` name with the origin.
    var path: String
    /// `profile`, `article` or `website`.
    var kind: String = "website"
    /// The `<main>` element's HTML, already escaped.
    var body: String
}

extension WebPage {
    /// What a page that is not there says: the same for an unknown name, a tweet that is gone and an account off
    /// the web, so none can be told from the others.
    static func notFound(_ path: String) -> WebPage {
        WebPage(
            status: 404, title: "Not found", summary: "There is nothing here.", path: path,
            body: #"<section class="empty"><h1>Not found</h1><p>There is nothing here: the name or the link "#
                + #"may be wrong, or what it named is gone.</p><p><a href="/">Everyone’s posts</a></p></section>"#)
    }

    /// What a failure the page cannot explain says: never a trace.
    static func failed(_ path: String) -> WebPage {
        WebPage(
            status: 500, title: "Something went wrong", summary: "The page could not be read.", path: path,
            body: #"<section class="empty"><h1>Something went wrong</h1><p>Try again in a moment.</p></section>"#)
    }
}
