import ArgumentParser
import TwitterAPI

/// `twctl feed`.
struct Feed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read tweets, newest first; --follow keeps streaming new ones until Ctrl-C."
    )

    @OptionGroup var options: GlobalOptions

    @OptionGroup var range: TweetRange

    @Option(help: "Only this user's tweets.")
    var author: String?

    @Flag(help: "Keep printing new tweets as they are posted.")
    var follow = false

    func run() async throws {
        let params = API.Tweets.FetchParams(
            sinceId: range.sinceID, maxId: range.older.maxID, limit: range.older.limit, author: author)
        try await DaemonConnection.run(options, login: .required) { connection in
            let page = try await connection.answer(API.Tweets.fetch, params)
            try await LiveStream.tweets(
                page, since: range.sinceID, follow: follow, on: connection, output: options.output
            ) { sinceID in
                _ = try await connection.call(API.Tweets.subscribe, .init(author: author, sinceId: sinceID))
            }
        }
    }
}
