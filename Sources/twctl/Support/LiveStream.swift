import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient

/// Prints a subscription's lines as they come until Ctrl-C, a lag, or a logout elsewhere; shared by
/// `twctl feed --follow`, `twctl timeline --follow` and `twctl notifications --follow`.
enum LiveStream {
    /// Streams tweets: `tweets.new` until `tweets.lagged`.
    static func print(_ connection: RPCConnection, output: Output) async throws {
        try await run(connection, output: output, lagged: API.Tweets.lagged) { notification in
            guard let new = try connection.decode(notification, as: API.Tweets.new) else { return false }
            if output.options.json { output.json(notification.params) } else { output.tweet(new.tweet) }
            return true
        }
    }

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
        try await print(connection, output: output)
    }

    /// Streams with `handle`, which prints a line it knows and says whether it knew it, until `lagged`.
    static func run(
        _ connection: RPCConnection, output: Output, lagged: RPCNotification<API.Tweets.Lagged>,
        handle: (TwitterClient.Notification) async throws -> Bool
    ) async throws {
        fflush(nil)  // every stream: a pipe to jq or less must see each line as it comes
        for await notification in connection.notifications {
            if try await handle(notification) {
                // printed
            } else if try connection.decode(notification, as: lagged) != nil {
                Output.printError("fell behind the stream; run the command again to catch up")
                throw ExitStatus.unavailable
            } else if let revoked = try connection.decode(notification, as: API.Auth.revoked) {
                // Logged out elsewhere (logout, a revoked token, a password change): the stream has ended.
                Output.printError(revoked.message + "; log in again with `twctl login`")
                throw ExitStatus.noPermission
            } else if output.options.json {
                output.json(notification.params)
            }
            fflush(nil)
        }
    }
}
