import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore
import TwitterTUI

/// `twctl follow`, `unfollow`, `mute`, `unmute`, `block` and `unblock`: one username each.
struct PersonAction: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Argument(help: "The account.")
    var username: String

    /// Calls `method` on the account and prints `done`.
    func run<Result: Decodable & Sendable>(_ method: RPCMethod<API.Users.UsernameParams, Result>, done: String)
        async throws
    {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(method, .init(username: username))
        }
        if options.json { return Output(options: options).json(answer.json) }
        Output(options: options).note(done)
    }
}

/// `twctl follow`.
struct Follow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Follow someone: their tweets join your home timeline.")

    @OptionGroup var person: PersonAction

    func run() async throws {
        try await person.run(API.Users.follow, done: "Following @\(person.username).")
    }
}

/// `twctl unfollow`.
struct Unfollow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Stop following someone.")

    @OptionGroup var person: PersonAction

    func run() async throws {
        try await person.run(API.Users.unfollow, done: "No longer following @\(person.username).")
    }
}

/// `twctl mute`.
struct Mute: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mute someone: their tweets, reposts and notifications disappear for you; follows stay.")

    @OptionGroup var person: PersonAction

    func run() async throws {
        try await person.run(API.Users.mute, done: "Muted @\(person.username).")
    }
}

/// `twctl unmute`.
struct Unmute: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "End a mute; what it hid comes back.")

    @OptionGroup var person: PersonAction

    func run() async throws {
        try await person.run(API.Users.unmute, done: "No longer muting @\(person.username).")
    }
}

/// `twctl block`.
struct Block: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Block someone: neither of you sees the other, they can not follow or answer you, follows end.")

    @OptionGroup var person: PersonAction

    func run() async throws {
        try await person.run(API.Users.block, done: "Blocked @\(person.username).")
    }
}

/// `twctl unblock`.
struct Unblock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "End a block; the follows it ended stay ended.")

    @OptionGroup var person: PersonAction

    func run() async throws {
        try await person.run(API.Users.unblock, done: "No longer blocking @\(person.username).")
    }
}

/// `twctl muted` and `twctl blocked`: your own lists.
struct OwnPeopleList: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Option(help: "How many, 1 to 200.")
    var limit = 40

    @Option(help: "The cursor printed at the end of the previous page.")
    var cursor: String?

    func run(_ method: RPCMethod<API.Users.OwnListParams, API.Users.UserPage>, empty: String) async throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(method, .init(limit: limit, cursor: cursor))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        output.people(answer.result.users, empty: empty)
        if let next = answer.result.nextCursor { output.note("more: --cursor \(next)") }
    }
}

/// `twctl muted`.
struct Muted: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Whom you mute; newest first.")

    @OptionGroup var list: OwnPeopleList

    func run() async throws {
        try await list.run(API.Users.muted, empty: "Muting no one.")
    }
}

/// `twctl blocked`.
struct Blocked: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Whom you block; newest first.")

    @OptionGroup var list: OwnPeopleList

    func run() async throws {
        try await list.run(API.Users.blocked, empty: "Blocking no one.")
    }
}

/// `twctl followers` and `twctl following`: one command, two lists.
struct PeopleList: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Argument(help: "Whose; yours when absent.")
    var username: String?

    @Option(help: "How many, 1 to 200.")
    var limit = 40

    @Option(help: "The cursor printed at the end of the previous page.")
    var cursor: String?

    func run(_ method: RPCMethod<API.Users.ListParams, API.Users.UserPage>, empty: String) async throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            var name = username ?? ""
            if username == nil { name = try await connection.call(API.Auth.whoami).user.username }
            return try await connection.answer(method, .init(username: name, limit: limit, cursor: cursor))
        }
        let output = Output(options: options)
        if options.json { return output.json(answer.json) }
        output.people(answer.result.users, empty: empty)
        if let next = answer.result.nextCursor { output.note("more: --cursor \(next)") }
    }
}

/// `twctl followers`.
struct Followers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Who follows you, or someone; newest first.")

    @OptionGroup var list: PeopleList

    func run() async throws {
        try await list.run(API.Users.followers, empty: "No followers.")
    }
}

/// `twctl following`.
struct Following: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Whom you, or someone, follow; newest first.")

    @OptionGroup var list: PeopleList

    func run() async throws {
        try await list.run(API.Users.following, empty: "Not following anyone.")
    }
}

/// `twctl user`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Someone's profile, counts, and how they relate to you.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Whose.")
    var username: String

    func run() async throws {
        let answer = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Users.get, .init(username: username))
        }
        if options.json { return Output(options: options).json(answer.json) }
        let user = answer.result
        let name = "\(user.firstName) \(user.lastName)".trimmingCharacters(in: .whitespaces)
        print(Terminal.bold("@" + user.username) + (name.isEmpty ? "" : "  \(name)"))
        if !user.bio.isEmpty { print(user.bio) }
        print(
            [
                HumanFormat.counted(user.tweetsCount, "tweet"), HumanFormat.counted(user.followersCount, "follower"),
                "\(user.followingCount) following",
            ].joined(separator: " · "))
        let relation = [
            user.followedByMe ? "you follow them" : nil, user.followsMe ? "they follow you" : nil,
            user.mutedByMe ? "you mute them" : nil, user.blockedByMe ? "you block them" : nil,
        ].compactMap { $0 }
        if !relation.isEmpty { print(relation.joined(separator: " · ")) }
        print(Terminal.dim("joined \(HumanFormat.month(of: user.createdAt))"))
    }
}
