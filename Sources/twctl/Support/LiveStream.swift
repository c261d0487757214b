import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient

/// Prints a subscription's tweets as they come until Ctrl-C, a lag, or a logout elsewhere; shared by
/// `twctl feed --follow` and `twctl timeline --follow`.
enum LiveStream {
    static func print(_ connection: RPCConnection, output: Output) async throws {
        fflush(nil)  // every stream: a pipe to jq or less must see each tweet as it comes
        for await notification in connection.notifications {
            if let new = try connection.decode(notification, as: API.Tweets.new) {
                if output.options.json { output.json(notification.params) } else { output.tweet(new.tweet) }
            } else if try connection.decode(notification, as: API.Tweets.lagged) != nil {
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
