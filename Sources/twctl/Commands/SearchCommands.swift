import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `twctl search`.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search tweets: words, \"a phrase\", from:user, #tag, -word; --users searches people by name.",
        discussion: "Example: twctl search 'coffee \"dark roast\" -decaf from:alice'"
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The query; quote it for the shell.")
    var query: String

    @Flag(help: "Search people by the start of their username or name instead.")
    var users = false

    @Option(help: "How many, 1 to 100.")
    var limit = 20

    @Option(help: "The cursor printed at the end of the previous page.")
    var cursor: String?

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100.") }
    }

    func run() async throws {
        let output = Output(options: options)
        if users {
            let answer = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(API.Search.users, .init(query: query, limit: limit))
            }
            if options.json { return output.json(answer.json) }
            return output.people(answer.result.users, empty: "No one found.")
        }
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Search.tweets, .init(query: query, limit: limit, cursor: cursor))
        }
        if options.json { return output.json(answer.json) }
        // Best match first, as ranked: not reversed like a timeline.
        for tweet in answer.result.tweets { output.tweet(tweet) }
        if answer.result.tweets.isEmpty { output.note("Nothing found.") }
        if let next = answer.result.nextCursor { output.note("more: --cursor \(next)") }
    }
}

/// `twctl tag`.
struct Tag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tweets carrying a hashtag, newest last.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The tag, with or without #.")
    var name: String

    @Option(help: "Only tweets older than this id (page back).")
    var before: Int?

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
    }

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(
                API.Tags.tweets, .init(tag: name, maxId: before.map(Int64.init), limit: limit))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        output.page(answer.result.tweets, empty: "No tweets tagged #\(name.trimmingPrefix("#")).")
    }
}

/// `twctl trending`.
struct Trending: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The tags of the last hours, by how many people used them.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "The window, 1 to 168 hours.")
    var hours = 24

    @Option(help: "How many tags, 1 to 100.")
    var limit = 10

    func validate() throws {
        guard (1...168).contains(hours) else { throw ValidationError("--hours must be between 1 and 168.") }
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100.") }
    }

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Tags.trending, .init(hours: hours, limit: limit))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        for tag in answer.result.tags {
            let people = tag.usersCount == 1 ? "1 person" : "\(tag.usersCount) people"
            print(
                Terminal.tag("#" + tag.tag) + "  "
                    + Terminal.dim("\(people) · \(Output.counted(tag.tweetsCount, "tweet"))"))
        }
        if answer.result.tags.isEmpty { output.note("No tags in the last \(hours) h.") }
    }
}
