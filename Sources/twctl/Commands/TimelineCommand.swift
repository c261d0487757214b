import ArgumentParser
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

    @OptionGroup var timeline: TimelineChoice

    @OptionGroup var range: TweetRange

    @Flag(help: "Keep printing new tweets as they are posted.")
    var follow = false

    func run() async throws {
        try await DaemonConnection.run(options, login: .required) { connection in
            let (name, page) = try await timeline.read(range, on: connection)
            try await LiveStream.tweets(
                page, since: range.sinceID, follow: follow, on: connection, output: options.output
            ) { sinceID in
                _ = try await connection.call(
                    API.Timelines.subscribe, .init(timeline: name, username: timeline.user, sinceId: sinceID))
            }
        }
    }
}

/// Which timeline `twctl timeline` reads. A group of its own, ahead of the page's options, so that its check
/// comes before theirs, as it always has.
struct TimelineChoice: ParsableArguments {
    @Flag(help: "Your tweets and reposts and those of everyone you follow.")
    var home = false

    @Flag(name: .customLong("public"), help: "Everyone's tweets.")
    var everyone = false

    @Option(help: "One user's tweets and reposts.")
    var user: String?

    func validate() throws {
        guard [home, everyone, user != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("Choose one of --home, --public and --user.")
        }
    }

    /// Reads the chosen timeline; returns its name for `timeline.subscribe` with the page.
    func read(_ range: TweetRange, on connection: RPCConnection) async throws
        -> (String, TypedAnswer<API.Tweets.TweetPage>)
    {
        let older = range.older
        if let user {
            let params = API.Timelines.UserParams(
                username: user, sinceId: range.sinceID, maxId: older.maxID, limit: older.limit)
            return ("user", try await connection.answer(API.Timelines.user, params))
        }
        let params = API.Timelines.PageParams(sinceId: range.sinceID, maxId: older.maxID, limit: older.limit)
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
