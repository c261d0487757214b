import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl bookmark`.
struct Bookmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bookmark a tweet, privately (--remove takes the bookmark back).")

    @OptionGroup var action: TweetAction

    @Flag(help: "Take the bookmark back instead.")
    var remove = false

    func run() async throws {
        if remove {
            try await action.run(API.Bookmarks.remove) { _ in "Took back the bookmark of #\(action.id)." }
        } else {
            try await action.run(API.Bookmarks.add) { _ in "Bookmarked #\(action.id)." }
        }
    }
}

/// `twctl bookmarks`.
struct Bookmarks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Your bookmarks, newest bookmark first.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    @Option(help: "The cursor a previous page printed, to read the next one.")
    var cursor: String?

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
    }

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Bookmarks.list, .init(limit: limit, cursor: cursor))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        output.page(answer.result.tweets)
        if let next = answer.result.nextCursor { output.note("More: twctl bookmarks --cursor \(next)") }
    }
}

/// `twctl pin`.
struct Pin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pin one of your own tweets to your profile (--remove unpins it).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of your tweet to pin; none with --remove.")
    var id: Int?

    @Flag(help: "Unpin your pinned tweet instead.")
    var remove = false

    func validate() throws {
        guard remove == (id == nil) else { throw ValidationError("Give a tweet id to pin, or --remove alone.") }
    }

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            if let id {
                return try await connection.answer(API.Profiles.pin, .init(id: Int64(id)))
            }
            return try await connection.answer(API.Profiles.unpin, NoParams())
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        output.note(answer.result.pinnedTweetId.map { "Pinned #\($0) to your profile." } ?? "Nothing is pinned now.")
    }
}
