import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl quote`.
struct Quote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Quote a tweet (a repost's original), with text of your own or none.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of the tweet to quote.")
    var id: Int

    @Argument(help: "Your text, up to 140 characters, or - for standard input; none to quote it alone.")
    var text: String?

    func run() async throws {
        let body = text == "-" ? Terminal.readAllInput() : text ?? ""
        let posted = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tweets.post, .init(text: body, quoteOf: Int64(id)))
        }
        if options.json { return Output(options: options).json(posted.json) }
        Output(options: options).tweet(posted.result)
    }
}

/// `twctl quotes`.
struct Quotes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tweets quoting a tweet, newest first.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of the tweet quoted.")
    var id: Int

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    @Option(help: "The cursor a previous page printed, to read the next one.")
    var cursor: String?

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
    }

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tweets.quotes, .init(id: Int64(id), limit: limit, cursor: cursor))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        output.page(answer.result.tweets, empty: "No quotes.")
        if let next = answer.result.nextCursor { output.note("More: twctl quotes \(id) --cursor \(next)") }
    }
}
