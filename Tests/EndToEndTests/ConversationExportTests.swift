import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// One long conversation must not make a member's `account.export` fail for good (issue #48): its messages are
/// paged like every other list of the archive, and twctl joins the pages back into one archive.
@Suite(.serialized) struct ConversationExportTests {
    /// Answers capped at 1 MiB, so that 300 messages of 1,000 mostly four-byte characters (about 1.2 MB of JSON)
    /// outweigh one answer, as 2,400 of them outweigh the default 8 MiB. Tweets of at most 40 characters keep
    /// the heaviest page of tweets within the lower cap, which the daemon checks at start (`PageWeight`).
    static let configuration =
        DaemonProcess.fastHashing
        + "[limits]\nmax_answer_bytes = 1048576\n[tweets]\nmax_length = 40\n[rates]\nmessages = \"off\"\n"
    static let count = 300

    /// Message `index`: 1,000 characters, its number first, then four-byte letters (U+1D55E).
    static func text(_ index: Int) -> String {
        let head = "message \(index) "
        return head + String(repeating: "\u{1D55E}", count: 1000 - head.count)
    }

    @Test func aConversationTooBigForOneAnswerIsExportedWholePageByPage() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        try await SocialTests.as_("bob", on: daemon, signUp: true) { bob in
            _ = try await bob.call("profile.update", ["messagesFrom": "everyone"])
        }
        let sent = try await SocialTests.as_("alice", on: daemon, signUp: true) { (alice) async throws in
            // Pipelined on one connection, numbered by their ids afterwards.
            try await withThrowingTaskGroup(of: (Int64, String).self) { group in
                for index in 0..<Self.count {
                    group.addTask {
                        let params = API.Messages.SendParams(text: Self.text(index), to: ["bob"])
                        return (try await alice.call(API.Messages.send, params).id, Self.text(index))
                    }
                }
                return try await group.reduce(into: [(Int64, String)]()) { $0.append($1) }.sorted { $0.0 < $1.0 }
            }
        }

        // bob, a member, exports page by page: every page is answered, within the cap.
        let archive = try await SocialTests.as_("bob", on: daemon) { (bob) async throws in
            var archive = AccountArchivePage()
            var pages = 0
            repeat {
                let page = try await bob.call(API.Account.export, .init(cursor: archive.next?.text))
                #expect(page.conversations.flatMap(\.messages).count <= 100, "a page holds 100 messages at most")
                archive.append(page)
                pages += 1
            } while archive.next != nil && pages < 50
            #expect(pages > 1, "the conversation took several pages")
            return archive
        }
        #expect(archive.conversations.count == 1, "one conversation, joined back from its pages")
        let messages = try #require(archive.conversations.first).messages
        #expect(messages.map(\.id) == sent.map(\.0), "every message once, oldest first")
        #expect(messages.map(\.text) == sent.map(\.1))
        #expect(archive.conversations.first?.participants.sorted() == ["alice", "bob"])

        // twctl export follows the pages and joins them the same way.
        let config = try TemporaryDirectory.make(prefix: "twctl-export")
        let socket = daemon.socketPath
        let twctl = { (arguments: [String], input: String?) in
            try runProduct(
                "twctl", arguments,
                environment: ["TWITTERD_SOCKET": socket, "XDG_CONFIG_HOME": config, "NO_COLOR": "1"], input: input)
        }
        let login = try twctl(["login", "--email", "bob@example.com", "--password-stdin"], "correct horse battery\n")
        #expect(login.status == 0, "\(login.error)")
        let export = try twctl(["export"], nil)
        #expect(export.status == 0, "\(export.error)")
        let file = try JSONValueDecoder().decode(AccountArchivePage.self, from: try JSONParser().parse(export.output))
        #expect(file.conversations.count == 1)
        #expect(file.conversations.first?.messages.map(\.id) == sent.map(\.0))
        #expect(file.next == nil)
    }
}
