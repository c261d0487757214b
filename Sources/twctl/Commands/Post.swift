import ArgumentParser
import JSONRPC

/// `twctl post`.
struct Post: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Post a tweet (\"-\" reads it from standard input).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The text, 1 to 140 characters, or - for standard input.")
    var text: String

    func run() async throws {
        let body = text == "-" ? Terminal.readAllInput() : text
        let tweet = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.call("tweets.post", ["text": .string(body)])
        }
        if options.json { return Output(options: options).json(tweet) }
        Output(options: options).tweet(tweet)
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
            try await connection.call("tweets.delete", ["id": .number(JSONNumber(id))])
        }
        if options.json { return Output(options: options).json(result) }
        Output(options: options).note("Deleted #\(id).")
    }
}
