import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient

/// Prints a subscription's lines as they come until Ctrl-C, a lag, or a logout elsewhere; shared by
/// `twctl feed --follow`, `twctl timeline --follow`, `twctl notifications --follow` and `twctl dm --follow`.
enum LiveStream {
    /// Prints a page of tweets (under --follow, only when it has any), then with `follow` subscribes through
    /// `subscribe`, from the page's newest tweet (else from `since`), and streams the new ones: `twctl feed` and
    /// `twctl timeline`.
    static func tweets(
        _ page: TypedAnswer<API.Tweets.TweetPage>, since: Int64?, follow: Bool, on connection: RPCConnection,
        output: Output, subscribe: (_ sinceID: Int64?) async throws -> Void
    ) async throws {
        if output.options.json {
            output.json(page.json)
        } else if !follow || !page.result.tweets.isEmpty {
            output.page(page.result.tweets)
        }
        guard follow else { return }
        try await subscribe(page.result.newestId ?? since)
        try await each(API.Tweets.new, lagged: API.Tweets.lagged, on: connection, output: output) { new in
            output.tweet(new.tweet)
        }
    }

    /// Streams the notifications of `kind` until `lagged`. Each one `keep` accepts is printed, as raw JSON under
    /// --json, else through `show`, then handed to `after` (which marks it read).
    static func each<Item>(
        _ kind: RPCNotification<Item>, lagged: RPCNotification<API.Tweets.Lagged>, on connection: RPCConnection,
        output: Output, keep: (Item) -> Bool = { _ in true }, after: (Item) async throws -> Void = { _ in },
        show: (Item) -> Void
    ) async throws {
        fflush(nil)  // every stream: a pipe to jq or less must see each line as it comes
        for await line in connection.notifications {
            if let item = try connection.decode(line, as: kind) {
                if keep(item) {
                    if output.options.json { output.json(line.params) } else { show(item) }
                    try await after(item)
                }
            } else if try connection.decode(line, as: lagged) != nil {
                Output.printError("fell behind the stream; run the command again to catch up")
                throw ExitStatus.unavailable
            } else if let revoked = try connection.decode(line, as: API.Auth.revoked) {
                // Logged out elsewhere (logout, a revoked token, a password change): the stream has ended.
                Output.printError(revoked.message + "; log in again with `twctl login`")
                throw ExitStatus.noPermission
            } else if output.options.json {
                output.json(line.params)
            }
            fflush(nil)
        }
    }
}
