import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl post`.
struct Post: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Post a tweet (\"-\" reads it from standard input).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The text, 1 to 140 characters, or - for standard input.")
    var text: String

    func run() async throws {
        let body = text == "-" ? Terminal.readAllInput() : text
        let posted = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tweets.post, .init(text: body))
        }
        if options.json { return Output(options: options).json(posted.json) }
        Output(options: options).tweet(posted.result)
    }
}

/// `twctl delete`.
struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete one of your tweets.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The tweet's id.")
    var id: Int

    func run() async throws {
        let result = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tweets.delete, .init(id: Int64(id)))
        }
        if options.json { return Output(options: options).json(result.json) }
        Output(options: options).note("Deleted #\(id).")
    }
}
