/// The document around every page: title, canonical link, Open Graph tags, one stylesheet inline (light and
/// dark by `prefers-color-scheme`, one column that fits a phone and widens to a desktop's reading width), no
/// script, and the headers that say so.
enum WebLayout {
    /// No script may run, nothing may be loaded from elsewhere, no form posts, no framing: the page's own inline
    /// style is all it uses.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'none'"

    /// The transport's answer for `page`, its links starting with `origin`.
    static func response(_ page: WebPage, origin: String) -> MastodonResponse {
        MastodonResponse(
            status: page.status,
            headers: [
                MastodonHeader(name: "Content-Type", value: "text/html; charset=utf-8"),
                MastodonHeader(name: "Content-Security-Policy", value: contentSecurityPolicy),
                MastodonHeader(name: "X-Content-Type-Options", value: "nosniff"),
                MastodonHeader(name: "Referrer-Policy", value: "same-origin"),
            ],
            body: Array(document(page, origin: origin).utf8))
    }

    /// The whole HTML document of `page`.
    static func document(_ page: WebPage, origin: String) -> String {
        let title = StatusContent.escaped(page.title)
        let summary = StatusContent.escaped(page.summary)
        let url = StatusContent.escaped(origin + page.path)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(title)</title>
            <meta name="description" content="\(summary)">
            <link rel="canonical" href="\(url)">
            <meta property="og:type" content="\(page.kind)">
            <meta property="og:site_name" content="twitterd">
            <meta property="og:title" content="\(title)">
            <meta property="og:description" content="\(summary)">
            <meta property="og:url" content="\(url)">
            <style>\(stylesheet)</style>
            </head>
            <body>
            <header class="site"><a href="/" class="brand">twitterd</a></header>
            <main>
            \(page.body)
            </main>
            </body>
            </html>

            """
    }

    /// System fonts only, so nothing is fetched; colours from two palettes.
    static let stylesheet = """
        :root{--bg:#fff;--fg:#14171a;--muted:#5b6770;--line:#e1e8ed;--link:#1769aa;--card:#f7f9fa}\
        @media (prefers-color-scheme:dark){:root{--bg:#15202b;--fg:#e7ecf0;--muted:#8b98a5;--line:#38444d;\
        --link:#6cb6ff;--card:#192734}}\
        *{box-sizing:border-box}\
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,sans-serif}\
        a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}\
        header.site{border-bottom:1px solid var(--line);padding:.6rem 1rem}\
        .brand{font-weight:700;color:var(--fg)}\
        main{max-width:600px;margin:0 auto;padding:0 1rem 2rem}\
        .profile{padding:1.2rem 0;border-bottom:1px solid var(--line)}\
        .profile h1{margin:0;font-size:1.4rem}.handle{color:var(--muted)}\
        .bio{margin:.6rem 0;overflow-wrap:anywhere}\
        .counts{display:flex;gap:1.2rem;color:var(--muted);margin:0;padding:0;list-style:none}\
        .counts b{color:var(--fg)}\
        article.tweet{padding:.8rem 0;border-bottom:1px solid var(--line)}\
        article.tweet.focus{font-size:1.15rem}\
        article.tweet.reply{padding-left:1rem;border-left:2px solid var(--line)}\
        .meta{display:flex;gap:.4rem;align-items:baseline;flex-wrap:wrap;color:var(--muted)}\
        .meta .author{font-weight:700}\
        .content p{margin:.3rem 0;overflow-wrap:anywhere}\
        .note{color:var(--muted);font-size:.875rem;margin:0 0 .2rem}\
        .stats{display:flex;gap:1rem;color:var(--muted);font-size:.875rem;margin:.3rem 0 0;padding:0;list-style:none}\
        blockquote.quoted{margin:.4rem 0;padding:.5rem .8rem;border:1px solid var(--line);border-radius:8px;\
        background:var(--card)}\
        .gone{color:var(--muted);font-style:italic;padding:.6rem 0;border-bottom:1px solid var(--line)}\
        h2.section{font-size:1rem;color:var(--muted);margin:1rem 0 0}\
        nav.pages{padding:1rem 0;text-align:center}\
        .empty{padding:2rem 0}.invisible{display:none}\
        @media (min-width:900px){main{max-width:680px}body{font-size:17px}}
        """
}
