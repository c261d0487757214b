import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore
import TwitterTUI

/// `twctl dm`: send a direct message, read a conversation (`--read`), or follow it live (`--follow`).
struct DirectMessage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dm",
        abstract: "Send a direct message (`twctl dm bob \"hi\"`, a group: `bob,carol`); --read shows the conversation.",
        discussion: """
            With --read, prints the conversation with those people, oldest first, and marks it read. With \
            --follow, prints it and then each new message as it comes, until Ctrl-C.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Show the conversation with these people, then mark it read.")
    var read = false

    @Flag(help: "Show the conversation, then keep printing new messages as they come.")
    var follow = false

    @Argument(help: "Who: a username, or several separated by commas.")
    var people: String

    @Argument(help: "The message.")
    var text: String?

    var names: [String] {
        people.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map {
            $0.hasPrefix("@") ? String($0.dropFirst()) : $0
        }.filter { !$0.isEmpty }
    }

    func validate() throws {
        guard !names.isEmpty else { throw ValidationError("Name at least one username.") }
        if read || follow {
            guard text == nil else { throw ValidationError("--read and --follow take no message.") }
        } else if text == nil {
            throw ValidationError("Give the message, or --read to read the conversation.")
        }
    }

    func run() async throws {
        let output = options.output
        try await DaemonConnection.run(options, login: .required) { connection in
            if let text {
                let sent = try await connection.answer(API.Messages.send, .init(text: text, to: names))
                if options.json { return output.json(sent.json) }
                return output.message(sent.result)
            }
            guard let conversation = try await Self.conversation(with: names, connection: connection) else {
                if !follow {
                    return output.note("No conversation with \(names.map { "@" + $0 }.joined(separator: ", ")).")
                }
                return try await stream(nil, connection: connection, output: output)
            }
            let page = try await connection.answer(
                API.Messages.list, .init(conversationId: conversation.id, limit: 200))
            if options.json {
                output.json(page.json)
            } else {
                for message in page.result.messages.reversed() { output.message(message) }
            }
            _ = try await connection.call(API.Messages.markRead, .init(conversationId: conversation.id))
            if follow { try await stream(conversation.id, connection: connection, output: output) }
        }
    }

    /// Prints each new message of the conversation (of any, until it is known) as it comes.
    private func stream(_ conversationID: Int64?, connection: RPCConnection, output: Output) async throws {
        _ = try await connection.call(API.Messages.subscribe)
        let wanted = Set(names.map { $0.lowercased() })
        try await LiveStream.each(
            API.Messages.new, lagged: API.Messages.lagged, on: connection, output: output,
            keep: { new in
                new.message.conversationId == conversationID
                    || (conversationID == nil
                        && new.message.sender.map { wanted.contains($0.username.lowercased()) } == true)
            },
            after: { new in
                guard let id = new.message.conversationId else { return }
                _ = try await connection.call(API.Messages.markRead, .init(conversationId: id))
            }
        ) { new in output.message(new.message) }
    }

    /// The conversation of exactly the caller and `names`, if there is one.
    static func conversation(with names: [String], connection: RPCConnection) async throws
        -> API.Messages.Conversation?
    {
        let wanted = Set(names.map { $0.lowercased() })
        var cursor: String?
        repeat {
            let page = try await connection.call(API.Messages.conversations, .init(limit: 100, cursor: cursor))
            for conversation in page.conversations {
                let members = Set(conversation.participants.map { $0.username.lowercased() })
                if members.count == wanted.count + 1, wanted.isSubset(of: members) { return conversation }
            }
            cursor = page.nextCursor
        } while cursor != nil
        return nil
    }
}

/// `twctl dms`.
struct DirectMessages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dms", abstract: "Your conversations, most recent first, with their unread counts.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "How many, 1 to 100.")
    var limit = 20

    func validate() throws {
        try Bounds.check(limit, upTo: 100)
    }

    func run() async throws {
        try await options.callAndPrint(API.Messages.conversations, .init(limit: limit)) { page, output in
            for conversation in page.conversations { output.conversation(conversation) }
            if page.conversations.isEmpty { output.note("No conversations.") }
        }
    }
}

extension Output {
    /// One message: `@alice · 2m` and its text; a deleted one as `(deleted)`.
    func message(_ message: API.Messages.Message, now: Date = Date()) {
        guard let sender = message.sender, let text = message.text else {
            return print(Terminal.dim("  (deleted message \(message.id))"))
        }
        let when = message.createdAt.map { " · " + HumanFormat.age(of: $0, now: now) } ?? ""
        print(Terminal.bold("@" + sender.username) + Terminal.dim(when))
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { print("  " + line) }
    }

    /// One conversation: its people, its unread count and its last message.
    func conversation(_ conversation: API.Messages.Conversation, now: Date = Date()) {
        let people = conversation.participants.map { "@" + $0.username + ($0.leftAt == nil ? "" : " (left)") }
        let unread = conversation.unreadCount > 0 ? "• \(conversation.unreadCount) unread  " : "  "
        print(
            unread + Terminal.bold(people.joined(separator: ", "))
                + Terminal.dim(" · \(HumanFormat.age(of: conversation.updatedAt, now: now))"))
        if let last = conversation.lastMessage?.text {
            print("    " + (last.split(separator: "\n").first.map(String.init) ?? ""))
        }
    }
}
