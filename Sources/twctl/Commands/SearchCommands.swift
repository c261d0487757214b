import ArgumentParser
import TwitterAPI

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
        try Bounds.check(limit, upTo: 100)
    }

    func run() async throws {
        if users {
            let params = API.Search.UsersParams(query: query, limit: limit)
            return try await options.callAndPrint(API.Search.users, params) { found, output in
                output.people(found.users, empty: "No one found.")
            }
        }
        let params = API.Search.TweetsParams(query: query, limit: limit, cursor: cursor)
        try await options.callAndPrint(API.Search.tweets, params) { found, output in
            // Best match first, as ranked: not reversed like a timeline.
            for tweet in found.tweets { output.tweet(tweet) }
            if found.tweets.isEmpty { output.note("Nothing found.") }
            output.nextPage(found.nextCursor)
        }
    }
}

/// `twctl tag`.
struct Tag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tweets carrying a hashtag, newest last.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The tag, with or without #.")
    var name: String

    @OptionGroup var older: OlderTweets

    func run() async throws {
        let params = API.Tags.TweetsParams(tag: name, maxId: older.maxID, limit: older.limit)
        try await options.callAndPrint(API.Tags.tweets, params) { tagged, output in
            output.page(tagged.tweets, empty: "No tweets tagged #\(name.trimmingPrefix("#")).")
        }
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
        try Bounds.check(hours, upTo: 168, option: "--hours")
        try Bounds.check(limit, upTo: 100)
    }

    func run() async throws {
        try await options.callAndPrint(API.Tags.trending, .init(hours: hours, limit: limit)) { trending, output in
            for tag in trending.tags {
                let people = tag.usersCount == 1 ? "1 person" : "\(tag.usersCount) people"
                print(
                    Terminal.tag("#" + tag.tag) + "  "
                        + Terminal.dim("\(people) · \(Output.counted(tag.tweetsCount, "tweet"))"))
            }
            if trending.tags.isEmpty { output.note("No tags in the last \(hours) h.") }
        }
    }
}
