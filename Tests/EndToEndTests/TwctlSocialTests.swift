import Foundation
import JSONRPC
import TestSupport
import Testing

/// twctl's social commands, the real binary against a real daemon: two people, each with their own session.
@Suite(.serialized) struct TwctlSocialTests {
    struct Person {
        let daemon: DaemonProcess
        /// The socket this person's twctl talks to, always the same one (twctl keeps its session per socket),
        /// as someone logged in on one host does; with two daemons, people are spread over both.
        let socket: String
        let config: String

        init(_ name: String, on daemon: DaemonProcess) throws {
            self.daemon = daemon
            socket = daemon.socketPath
            config = try TemporaryDirectory.make(prefix: "twctl-\(name)")
            let signup = try run(
                ["signup", "--email", "\(name)@example.com", "--username", name, "--password-stdin"],
                input: "correct horse battery\n")
            #expect(signup.status == 0, "\(signup.error)")
        }

        @discardableResult
        func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, error: String) {
            try runProduct(
                "twctl", arguments,
                environment: ["TWITTERD_SOCKET": socket, "XDG_CONFIG_HOME": config, "NO_COLOR": "1"],
                input: input)
        }

        /// `--json` output, parsed.
        func json(_ arguments: [String]) throws -> JSONValue {
            let result = try run(["--json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            return try JSONParser().parse(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    static func id(_ value: JSONValue?) throws -> String {
        guard case .number(let number)? = value else { throw ClientFailure.missing }
        return number.text
    }

    enum ClientFailure: Error { case missing }

    @Test func followReplyLikeRepostAndReadTheThread() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let bob = try Person("bob", on: daemon)
        let root = try Self.id(try alice.json(["post", "what do you think?"])["id"])

        // Until bob follows someone, `timeline` is the public one; then it is his home timeline.
        #expect(try bob.run(["timeline"]).output.contains("what do you think?"))
        #expect(try bob.run(["follow", "alice"]).output == "Following @alice.\n")
        #expect(try bob.json(["follow", "alice"])["following"] == true)
        let refused = try bob.run(["follow", "bob"])
        #expect(refused.status == 65 && refused.error.contains("You can not follow yourself"))
        let home = try bob.run(["timeline"])
        #expect(home.output.contains("@alice") && home.output.contains("0 likes · 0 reposts · 0 replies"))

        let reply = try bob.run(["reply", root, "I think so"])
        #expect(reply.status == 0 && reply.output.contains("reply to #\(root)"))
        #expect(try bob.run(["like", root]).output == "Liked #\(root) (1 like).\n")
        #expect(try bob.run(["repost", root]).output.contains("Reposted #\(root)"))
        let counted = try alice.run(["timeline", "--public"]).output
        #expect(counted.contains("@bob reposted"))
        #expect(counted.contains("1 like · 1 repost · 1 reply"))
        #expect(
            try bob.run(["timeline", "--user", "alice"]).output.contains("1 like (you) · 1 repost (you) · 1 reply"))

        let thread = try alice.run(["thread", root]).output.split(separator: "\n").map(String.init)
        #expect(thread.first?.hasPrefix("@alice") == true)
        #expect(
            thread.contains { $0.hasPrefix("  @bob") && $0.contains("reply to #\(root)") },
            "the reply is indented under it")
        #expect(try alice.json(["thread", root])["descendants"]?[0]?["text"] == "I think so")

        let user = try alice.run(["user", "bob"]).output
        #expect(user.contains("2 tweets · 0 followers · 1 following"))
        #expect(user.contains("they follow you"))
        #expect(try alice.run(["followers"]).output == "@bob\n")
        #expect(try bob.run(["following"]).output == "@alice\n")
        #expect(try alice.run(["following"]).output == "Not following anyone.\n")

        #expect(try bob.run(["unrepost", root]).status == 0)
        #expect(try bob.json(["unlike", root])["likesCount"] == 0)
        #expect(try bob.run(["unfollow", "alice"]).status == 0)
        #expect(try bob.run(["timeline", "--home"]).output.contains("what do you think?") == false)
        let missing = try bob.run(["like", "999999"])
        #expect(missing.status != 0 && missing.error.contains("Tweet 999999"))
    }

    @Test func timelineFollowStreamsTheHomeTimeline() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let carol = try Person("carol", on: daemon)
        let bob = try Person("bob", on: daemon)
        try bob.run(["follow", "alice"])
        try alice.run(["post", "already there"])
        let follower = try RunningProduct(
            "twctl", ["timeline", "--follow"],
            environment: ["TWITTERD_SOCKET": bob.socket, "XDG_CONFIG_HOME": bob.config, "NO_COLOR": "1"])
        // The home page is printed first: after it, the follower is streaming.
        while let line = follower.readLine(), !line.contains("already there") {}
        try carol.run(["post", "a stranger speaks"])
        try alice.run(["post", "a friend speaks"])
        var seen: [String] = []
        while let line = follower.readLine() {
            seen.append(line)
            if line.contains("a friend speaks") { break }
        }
        #expect(seen.contains { $0.contains("a friend speaks") })
        #expect(!seen.contains { $0.contains("a stranger speaks") }, "the stranger was posted first and never shows")
        follower.interrupt()
    }

    @Test func bookmarkBookmarksAndPin() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let bob = try Person("bob", on: daemon)
        let id = try Self.id(try alice.json(["post", "keep this one"])["id"])

        #expect(try bob.run(["bookmark", id]).output == "Bookmarked #\(id).\n")
        #expect(try bob.run(["bookmarks"]).output.contains("keep this one"))
        #expect(try alice.run(["bookmarks"]).output.contains("No tweets."), "bob's bookmarks are his")
        #expect(try bob.run(["bookmark", "--remove", id]).output == "Took back the bookmark of #\(id).\n")
        #expect(try !bob.run(["bookmarks"]).output.contains("keep this one"))

        #expect(try alice.run(["pin", id]).output == "Pinned #\(id) to your profile.\n")
        #expect(
            try bob.json(["call", "users.get", "{\"username\":\"alice\"}"])["pinnedTweet"]?["text"]
                == .string("keep this one"))
        let refused = try bob.run(["pin", id])
        #expect(refused.status != 0 && refused.error.contains("only a tweet of your own"))
        #expect(try alice.run(["pin", "--remove"]).output == "Nothing is pinned now.\n")
    }

    @Test func quoteShowsTheQuotedTweetIndentedOrUnavailable() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let bob = try Person("bob", on: daemon)
        let id = try Self.id(try alice.json(["post", "worth quoting"])["id"])

        let quoted = try bob.run(["quote", id, "so true"])
        #expect(quoted.status == 0)
        #expect(quoted.output.contains("so true") && quoted.output.contains("    @alice"), "indented under the quote")
        #expect(try bob.run(["quote", id]).status == 0, "the text is optional")
        #expect(try alice.run(["quotes", id]).output.contains("so true"))
        #expect(try Self.id(alice.json(["call", "tweets.get", "[\(id)]"])["quotesCount"]) == "2")

        _ = try alice.run(["delete", id])
        let after = try bob.run(["timeline", "--user", "bob"])
        #expect(after.output.contains("[quoted tweet unavailable]"))
    }

    @Test func listCreateAddShowRemoveDeleteAndLists() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let bob = try Person("bob", on: daemon)
        let carol = try Person("carol", on: daemon)
        try bob.run(["post", "bob on the list"])
        try carol.run(["post", "carol is not"])

        #expect(
            try alice.run(["list", "create", "news", "--description", "what I read"]).output == "Made list \"news\".\n")
        #expect(try alice.run(["list", "create", "secret", "--private"]).output == "Made private list \"secret\".\n")
        #expect(try alice.run(["list", "add", "news", "bob"]).output == "Added @bob to \"news\" (1 member now).\n")
        let shown = try alice.run(["list", "show", "news"]).output
        #expect(shown.contains("bob on the list") && !shown.contains("carol is not"))
        let mine = try alice.run(["lists"]).output
        #expect(mine.contains("news  1 member  what I read") && mine.contains("secret (private)  0 members"))
        let hers = try bob.run(["lists", "--user", "alice"]).output
        #expect(hers.contains("news") && !hers.contains("secret"), "a private list is alice's alone")
        let notHers = try bob.run(["list", "show", "news"])
        #expect(notHers.status != 0 && notHers.error.contains("you have no list named \"news\""))
        let long = try alice.run(["list", "create", String(repeating: "n", count: 26)])
        #expect(long.status != 0 && long.error.contains("Name is at most 25 characters"))

        #expect(try alice.run(["list", "remove", "news", "bob"]).output == "Took @bob off \"news\" (0 members now).\n")
        #expect(try alice.run(["list", "show", "news"]).output.contains("No tweets."))
        #expect(try alice.run(["list", "delete", "news"]).output == "Deleted list \"news\".\n")
        #expect(try !alice.run(["lists"]).output.contains("news"))
    }
}
