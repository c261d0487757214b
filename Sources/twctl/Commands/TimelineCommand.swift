import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient

/// `twctl timeline`.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Read a timeline: your home timeline once you follow someone, else the public one.",
        discussion: "--follow keeps printing new tweets until Ctrl-C."
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Your tweets and reposts and those of everyone you follow.")
    var home = false

    @Flag(name: .customLong("public"), help: "Everyone's tweets.")
    var everyone = false

    @Option(help: "One user's tweets and reposts.")
    var user: String?

    @Option(help: "Only tweets newer than this id.")
    var since: Int?

    @Option(help: "Only tweets older than this id (page back).")
    var before: Int?

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    @Flag(help: "Keep printing new tweets as they are posted.")
    var follow = false

    func validate() throws {
        guard [home, everyone, user != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("Choose one of --home, --public and --user.")
        }
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
    }

    func run() async throws {
        let output = Output(options: options)
        try await DaemonConnection.run(options, login: .required) { connection in
            let (name, page) = try await read(connection)
            if options.json {
                output.json(page.json)
            } else if !follow || !page.result.tweets.isEmpty {
                output.page(page.result.tweets)
            }
            guard follow else { return }
            let sinceID = page.result.newestId ?? since.map(Int64.init)
            _ = try await connection.call(
                API.Timelines.subscribe, .init(timeline: name, username: user, sinceId: sinceID))
            try await LiveStream.print(connection, output: output)
        }
    }

    /// Reads the chosen timeline; returns its name for `timeline.subscribe` with the page.
    private func read(_ connection: RPCConnection) async throws -> (String, TypedAnswer<API.Tweets.TweetPage>) {
        let (sinceID, maxID) = (since.map(Int64.init), before.map(Int64.init))
        if let user {
            let params = API.Timelines.UserParams(username: user, sinceId: sinceID, maxId: maxID, limit: limit)
            return ("user", try await connection.answer(API.Timelines.user, params))
        }
        let params = API.Timelines.PageParams(sinceId: sinceID, maxId: maxID, limit: limit)
        var showsPublic = everyone
        if !everyone && !home { showsPublic = try await !followsAnyone(connection) }
        if showsPublic {
            return ("public", try await connection.answer(API.Timelines.public, params))
        }
        return ("home", try await connection.answer(API.Timelines.home, params))
    }

    /// Whether the caller follows anyone: until they do, their home timeline is only their own tweets.
    private func followsAnyone(_ connection: RPCConnection) async throws -> Bool {
        let me = try await connection.call(API.Auth.whoami).user.username
        return try await connection.call(API.Users.get, .init(username: me)).followingCount > 0
    }
}
