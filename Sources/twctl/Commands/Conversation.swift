import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl reply`.
struct Reply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a tweet (\"-\" reads the text from standard input).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of the tweet to answer.")
    var id: Int

    @Argument(help: "The text, 1 to 140 characters, or - for standard input.")
    var text: String

    func run() async throws {
        let body = text == "-" ? Terminal.readAllInput() : text
        let posted = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tweets.post, .init(text: body, inReplyToId: Int64(id)))
        }
        if options.json { return Output(options: options).json(posted.json) }
        Output(options: options).tweet(posted.result)
    }
}

/// `twctl thread`.
struct ThreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread", abstract: "A tweet with its whole conversation, as an indented tree.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of any tweet in the conversation.")
    var id: Int

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tweets.thread, .init(id: Int64(id)))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        let thread = answer.result
        var depth: [Int64: Int] = [:]
        for (level, ancestor) in thread.ancestors.enumerated() {
            Self.show(ancestor, indent: level, output: output)
            depth[ancestor.id] = level
        }
        let level = thread.ancestors.count
        depth[thread.tweet.id] = level
        output.tweet(thread.tweet, indent: level)
        for reply in thread.descendants {
            let indent = reply.inReplyToId.flatMap { depth[$0] }.map { $0 + 1 } ?? level + 1
            depth[reply.id] = indent
            Self.show(reply, indent: indent, output: output)
        }
        if thread.truncated == true { output.note("… more replies than shown") }
    }

    private static func show(_ item: API.Tweets.ThreadItem, indent: Int, output: Output) {
        switch item {
        case .tweet(let tweet): output.tweet(tweet, indent: indent)
        case .deleted(let id, _): print(String(repeating: "  ", count: indent) + Terminal.dim("#\(id) was deleted"))
        }
    }
}

/// `twctl like`, `unlike`, `repost` and `unrepost`: one tweet id each.
struct TweetAction: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Argument(help: "The tweet's id.")
    var id: Int

    /// Calls `method` on the tweet and prints `done` with what it answered.
    func run<Result: Sendable>(
        _ method: RPCMethod<API.Tweets.IDParams, Result>, done: (Result) -> String
    ) async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(method, .init(id: Int64(id)))
        }
        if options.json { return Output(options: options).json(answer.json) }
        Output(options: options).note(done(answer.result))
    }
}

/// `twctl like`.
struct Like: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Like a tweet.")

    @OptionGroup var action: TweetAction

    func run() async throws {
        try await action.run(API.Tweets.like) { "Liked #\(action.id) (\(Output.counted($0.likesCount, "like")))." }
    }
}

/// `twctl unlike`.
struct Unlike: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take back a like.")

    @OptionGroup var action: TweetAction

    func run() async throws {
        try await action.run(API.Tweets.unlike) {
            "No longer liking #\(action.id) (\(Output.counted($0.likesCount, "like")))."
        }
    }
}

/// `twctl repost`.
struct Repost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Repost a tweet to your followers.")

    @OptionGroup var action: TweetAction

    func run() async throws {
        try await action.run(API.Tweets.repost) { "Reposted #\(action.id) as #\($0.id)." }
    }
}

/// `twctl unrepost`.
struct Unrepost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take back a repost (give the original's id).")

    @OptionGroup var action: TweetAction

    func run() async throws {
        try await action.run(API.Tweets.unrepost) { _ in "Took back the repost of #\(action.id)." }
    }
}
