import MastodonAPI

/// The Mastodon endpoints the daemon serves over HTTP.
enum DaemonEndpoints {
    /// Every endpoint: MastodonAPI's table (`MastodonRoutes.all`, with the OAuth endpoints) once it lands; until
    /// then none, and every path is a 404.
    static let all: [MastodonEndpoint] = []
}
