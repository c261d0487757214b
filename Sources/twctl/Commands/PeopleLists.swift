import ArgumentParser
import JSONRPC
import TwitterAPI
import TwitterClient

/// One of `twctl muted`, `blocked`, `followers` and `following`: a page of people, which differ only by the
/// method they call and what they say when it is empty.
protocol PeopleList {
    associatedtype Params: Codable & Sendable
    /// The command's name and abstract.
    static var configuration: CommandConfiguration { get }
    /// The method that reads the page.
    static var method: RPCMethod<Params, API.Users.UserPage> { get }
    /// The line printed for an empty list.
    static var empty: String { get }
}

/// `--limit` and `--cursor` of a page of people.
struct PeoplePage: ParsableArguments {
    @Option(help: "How many, 1 to 200.")
    var limit = 40

    @Option(help: "The cursor printed at the end of the previous page.")
    var cursor: String?

    /// The range check of `--limit`. The commands make it when they run, not in `validate()`, as they always
    /// have: ArgumentParser prints twctl's usage under an error from `run()`, the subcommand's under one from
    /// `validate()`.
    func check() throws {
        try Bounds.check(limit, upTo: 200)
    }
}

/// The command of a list of your own: `twctl muted` and `twctl blocked`.
struct OwnPeopleListCommand<List: PeopleList>: AsyncParsableCommand where List.Params == API.Users.OwnListParams {
    static var configuration: CommandConfiguration { List.configuration }

    @OptionGroup var options: GlobalOptions

    @OptionGroup var page: PeoplePage

    func run() async throws {
        try page.check()
        try await options.callAndPrint(List.method, .init(limit: page.limit, cursor: page.cursor)) { people, output in
            output.people(people, empty: List.empty)
        }
    }
}

/// The command of someone's list, yours by default: `twctl followers` and `twctl following`.
struct PeopleListCommand<List: PeopleList>: AsyncParsableCommand where List.Params == API.Users.ListParams {
    static var configuration: CommandConfiguration { List.configuration }

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Whose; yours when absent.")
    var username: String?

    @OptionGroup var page: PeoplePage

    func run() async throws {
        try page.check()
        try await options.callAndPrint({ connection in
            let params = API.Users.ListParams(
                username: try await whose(connection), limit: page.limit, cursor: page.cursor)
            return try await connection.answer(List.method, params)
        }) { people, output in output.people(people, empty: List.empty) }
    }

    /// The username given, else the caller's own.
    private func whose(_ connection: RPCConnection) async throws -> String {
        if let username { return username }
        return try await connection.call(API.Auth.whoami).user.username
    }
}

enum Muted: PeopleList {
    static let configuration = CommandConfiguration(commandName: "muted", abstract: "Whom you mute; newest first.")
    static let method = API.Users.muted
    static let empty = "Muting no one."
}

enum Blocked: PeopleList {
    static let configuration = CommandConfiguration(commandName: "blocked", abstract: "Whom you block; newest first.")
    static let method = API.Users.blocked
    static let empty = "Blocking no one."
}

enum Followers: PeopleList {
    static let configuration = CommandConfiguration(
        commandName: "followers", abstract: "Who follows you, or someone; newest first.")
    static let method = API.Users.followers
    static let empty = "No followers."
}

enum Following: PeopleList {
    static let configuration = CommandConfiguration(
        commandName: "following", abstract: "Whom you, or someone, follow; newest first.")
    static let method = API.Users.following
    static let empty = "Not following anyone."
}
