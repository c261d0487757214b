import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI

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
        let params = API.Tweets.FetchParams(
            sinceId: since.map(Int64.init), maxId: before.map(Int64.init), limit: limit, author: author)
        let output = Output(options: options)
        try await DaemonConnection.run(options, login: .required) { connection in
            let page = try await connection.answer(API.Tweets.fetch, params)
            if options.json {
                output.json(page.json)
            } else if !follow || !page.result.tweets.isEmpty {
                output.page(page.result.tweets)
            }
            guard follow else { return }
            let sinceID = page.result.newestId ?? since.map(Int64.init)
            _ = try await connection.call(API.Tweets.subscribe, .init(author: author, sinceId: sinceID))
            try await LiveStream.print(connection, output: output)
        }
    }
}
