import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl post`.
struct Post: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Post a tweet (\"-\" reads it from standard input).")

    @OptionGroup var options: GlobalOptions

    @OptionGroup var text: TweetText

    func run() async throws {
        try await options.post(.init(text: text.read()))
    }
}

/// `twctl reply`.
struct Reply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a tweet (\"-\" reads the text from standard input).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of the tweet to answer.")
    var id: Int

    @OptionGroup var text: TweetText

    func run() async throws {
        try await options.post(.init(text: text.read(), inReplyToId: Int64(id)))
    }
}

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
        try await options.post(.init(text: text.map(Terminal.textOrStandardInput) ?? "", quoteOf: Int64(id)))
    }
}

/// The text of a new tweet or reply: as given, or standard input's for `-`.
struct TweetText: ParsableArguments {
    @Argument(help: "The text, 1 to 140 characters, or - for standard input.")
    var text: String

    /// The text, read from standard input for `-`.
    func read() -> String {
        Terminal.textOrStandardInput(text)
    }
}

extension GlobalOptions {
    /// Posts a tweet, a reply or a quote, and prints it as posted.
    func post(_ params: API.Tweets.PostParams) async throws {
        try await callAndPrint(API.Tweets.post, params) { tweet, output in output.tweet(tweet) }
    }
}
