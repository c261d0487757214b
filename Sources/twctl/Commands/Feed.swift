import ArgumentParser
import Foundation
import JSONRPC

/// `twctl feed`.
struct Feed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read tweets, newest first; --follow keeps streaming new ones until Ctrl-C."
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Only tweets newer than this id.")
    var since: Int?

    @Option(help: "Only tweets older than this id (page back).")
    var before: Int?

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    @Option(help: "Only this user's tweets.")
    var author: String?

    @Flag(help: "Keep printing new tweets as they are posted.")
    var follow = false

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
    }

    func run() async throws {
        var params: [String: JSONValue] = ["limit": .number(JSONNumber(limit))]
        if let since { params["sinceId"] = .number(JSONNumber(since)) }
        if let before { params["maxId"] = .number(JSONNumber(before)) }
        if let author { params["author"] = .string(author) }
        let output = Output(options: options)
        try await DaemonConnection.run(options, login: .required) { connection in
            let page = try await connection.call("tweets.fetch", .object(params))
            if options.json {
                output.json(page)
            } else if case .array(let tweets)? = page["tweets"] {
                // Oldest first on screen, so the newest ends up next to the prompt as in a chat.
                for tweet in tweets.reversed() { output.tweet(tweet) }
                if tweets.isEmpty && !follow { output.note("No tweets.") }
            }
            guard follow else { return }
            fflush(nil)  // every stream: a pipe to jq or less must see each tweet as it comes
            var subscribe: [String: JSONValue] = [:]
            if let newest = page["newestId"], newest != .null {
                subscribe["sinceId"] = newest
            } else if let since {
                subscribe["sinceId"] = .number(JSONNumber(since))
            }
            if let author { subscribe["author"] = .string(author) }
            _ = try await connection.call("tweets.subscribe", .object(subscribe))
            for await notification in connection.notifications {
                switch notification.method {
                case "tweets.new":
                    if options.json {
                        output.json(notification.params)
                    } else if let tweet = notification.params["tweet"] {
                        output.tweet(tweet)
                    }
                case "tweets.lagged":
                    Output.printError("fell behind the stream; run `twctl feed` again to catch up")
                    throw ExitStatus.unavailable
                case "auth.revoked":
                    // Logged out elsewhere (logout, a revoked token, a password change): the stream has ended.
                    let message = notification.params["message"].flatMap {
                        if case .string(let text) = $0 { text } else { nil }
                    }
                    Output.printError((message ?? "logged out") + "; log in again with `twctl login`")
                    throw ExitStatus.noPermission
                default:
                    if options.json { output.json(notification.params) }
                }
                fflush(nil)
            }
        }
    }
}
