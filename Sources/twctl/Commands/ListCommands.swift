import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl list create|add|remove|show|delete`: one of your lists, named by its name (found through lists.mine).
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Your lists: make one, add and remove people, read it, delete it.",
        discussion: "A list is named by its name; nobody you add is told. `twctl lists` shows yours.",
        subcommands: [Create.self, Add.self, Remove.self, Show.self, Delete.self]
    )

    /// Your list named `name`, through `lists.mine`; a clear error, and exit status 65, when you have none.
    static func mine(named name: String, on connection: RPCConnection) async throws -> UserList {
        let lists = try await connection.call(API.Lists.mine).lists
        guard let list = lists.first(where: { $0.name == name }) else {
            Output.printError("you have no list named \"\(name)\" (`twctl lists` shows yours)")
            throw ExitStatus.data
        }
        return list
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a list.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Its name, 1 to 25 characters.")
        var name: String

        @Option(help: "What it is, up to 100 characters.")
        var description: String?

        @Flag(help: "Only you may see it.")
        var `private` = false

        func run() async throws {
            let answer = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(
                    API.Lists.create, .init(name: name, description: description, isPrivate: `private`))
            }
            let output = Output(options: options)
            if options.json { return output.json(answer.json) }
            output.note("Made \(answer.result.isPrivate ? "private " : "")list \"\(answer.result.name)\".")
        }
    }

    /// A list of yours and someone to add or take off: what `add` and `remove` share.
    struct Membership: ParsableArguments {
        @OptionGroup var options: GlobalOptions

        @Argument(help: "Your list's name.")
        var name: String

        @Argument(help: "Whom to add or take off.")
        var username: String

        /// Calls `method` for the list named `name` and prints `done` (given the list's name) with the count.
        func run(_ method: RPCMethod<API.Lists.MemberParams, UserList>, done: (String) -> String) async throws {
            let answer = try await DaemonConnection.run(options, login: .required) { connection in
                let list = try await ListCommand.mine(named: name, on: connection)
                return try await connection.answer(method, .init(id: list.id, username: username))
            }
            let output = Output(options: options)
            if options.json { return output.json(answer.json) }
            output.note(
                "\(done(answer.result.name)) (\(Output.counted(answer.result.membersCount, "member")) now).")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add someone to your list; they are not told.")

        @OptionGroup var membership: Membership

        func run() async throws {
            try await membership.run(API.Lists.add) { "Added @\(membership.username) to \"\($0)\"" }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take someone off your list.")

        @OptionGroup var membership: Membership

        func run() async throws {
            try await membership.run(API.Lists.remove) { "Took @\(membership.username) off \"\($0)\"" }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read your list: its members' tweets and reposts, newest first.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Your list's name.")
        var name: String

        @Option(help: "Only tweets older than this id (page back).")
        var before: Int?

        @Option(help: "How many, 1 to 200.")
        var limit = 20

        func validate() throws {
            guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
        }

        func run() async throws {
            let page = try await DaemonConnection.run(options, login: .required) { connection in
                let list = try await ListCommand.mine(named: name, on: connection)
                return try await connection.answer(
                    API.Timelines.list, .init(id: list.id, maxId: before.map(Int64.init), limit: limit))
            }
            let output = Output(options: options)
            if options.json { return output.json(page.json) }
            output.page(page.result.tweets)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete your list.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Your list's name.")
        var name: String

        func run() async throws {
            let answer = try await DaemonConnection.run(options, login: .required) { connection in
                let list = try await ListCommand.mine(named: name, on: connection)
                return try await connection.answer(API.Lists.delete, .init(id: list.id))
            }
            let output = Output(options: options)
            if options.json { return output.json(answer.json) }
            output.note("Deleted list \"\(name)\".")
        }
    }
}

/// `twctl lists`.
struct ListsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists", abstract: "Your lists, or with --user someone's public ones.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Whose public lists; yours, private ones too, when absent.")
    var user: String?

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            if let user { return try await connection.answer(API.Lists.of, .init(username: user)) }
            return try await connection.answer(API.Lists.mine)
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        for list in answer.result.lists {
            let privacy = list.isPrivate ? " (private)" : ""
            let description = list.description.isEmpty ? "" : "  \(list.description)"
            print("\(list.name)\(privacy)  \(Output.counted(list.membersCount, "member"))\(description)")
        }
        if answer.result.lists.isEmpty { output.note(user.map { "@\($0) has no public lists." } ?? "No lists yet.") }
    }
}
