import ArgumentParser
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl list create|add|remove|show|delete`: one of your lists, named by its name (found through lists.mine).
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Your lists: make one, add and remove people, read it, delete it.",
        discussion: "A list is named by its name; nobody you add is told. `twctl lists` shows yours.",
        subcommands: [Create.self, VerbCommand<Add>.self, VerbCommand<Remove>.self, Show.self, Delete.self]
    )

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
            try await options.callAndPrint(
                API.Lists.create, .init(name: name, description: description, isPrivate: `private`)
            ) { list, output in
                output.note("Made \(list.isPrivate ? "private " : "")list \"\(list.name)\".")
            }
        }
    }

    enum Add: Verb {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add someone to your list; they are not told.")
        static let method = API.Lists.add
        static func done(_ member: ListMember, _ list: UserList) -> String {
            member.changed("Added @\(member.username) to \"\(list.name)\"", list)
        }
    }

    enum Remove: Verb {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take someone off your list.")
        static let method = API.Lists.remove
        static func done(_ member: ListMember, _ list: UserList) -> String {
            member.changed("Took @\(member.username) off \"\(list.name)\"", list)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read your list: its members' tweets and reposts, newest first.")

        @OptionGroup var options: GlobalOptions

        @OptionGroup var list: YourList

        @OptionGroup var older: OlderTweets

        func run() async throws {
            try await options.callAndPrint({ connection in
                try await connection.answer(
                    API.Timelines.list,
                    .init(id: try await list.find(on: connection).id, maxId: older.maxID, limit: older.limit))
            }) { page, output in output.page(page.tweets) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete your list.")

        @OptionGroup var options: GlobalOptions

        @OptionGroup var list: YourList

        func run() async throws {
            try await options.callAndPrint({ connection in
                try await connection.answer(API.Lists.delete, .init(id: try await list.find(on: connection).id))
            }) { _, output in output.note("Deleted list \"\(list.name)\".") }
        }
    }
}

/// One of your lists, named by its name.
struct YourList: ParsableArguments {
    @Argument(help: "Your list's name.")
    var name: String

    /// The list, through `lists.mine`; a clear error, and exit status 65, when you have none of that name.
    func find(on connection: RPCConnection) async throws -> UserList {
        let lists = try await connection.call(API.Lists.mine).lists
        guard let list = lists.first(where: { $0.name == name }) else {
            Output.printError("you have no list named \"\(name)\" (`twctl lists` shows yours)")
            throw ExitStatus.data
        }
        return list
    }
}

/// A list of yours and someone to add to it or take off it.
struct ListMember: VerbTarget {
    @OptionGroup var list: YourList

    @Argument(help: "Whom to add or take off.")
    var username: String

    func params(on connection: RPCConnection) async throws -> API.Lists.MemberParams {
        .init(id: try await list.find(on: connection).id, username: username)
    }

    /// `done`, and how many members the list has now.
    func changed(_ done: String, _ list: UserList) -> String {
        "\(done) (\(Output.counted(list.membersCount, "member")) now)."
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
        try await options.callAndPrint({ connection in
            if let user { return try await connection.answer(API.Lists.of, .init(username: user)) }
            return try await connection.answer(API.Lists.mine)
        }) { found, output in
            for list in found.lists {
                let privacy = list.isPrivate ? " (private)" : ""
                let description = list.description.isEmpty ? "" : "  \(list.description)"
                print("\(list.name)\(privacy)  \(Output.counted(list.membersCount, "member"))\(description)")
            }
            if found.lists.isEmpty { output.note(user.map { "@\($0) has no public lists." } ?? "No lists yet.") }
        }
    }
}
