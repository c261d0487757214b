import Foundation
import JSONRPC
import TestSupport
import Testing

/// twctl's notifications, search, tags, mutes and blocks, the real binary against a real daemon.
@Suite(.serialized) struct TwctlReachTests {
    typealias Person = TwctlSocialTests.Person

    @Test func notificationsAreListedMarkedReadAndFollowedLive() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let bob = try Person("bob", on: daemon)
        let root = try TwctlSocialTests.id(try alice.json(["post", "hello @bob"])["id"])
        #expect(try bob.run(["whoami"]).output.contains("1 unread notification\n"))
        #expect(try bob.run(["status"]).output.contains("unread       1 unread notification"))
        try bob.run(["like", root])
        try bob.run(["follow", "alice"])

        let listed = try alice.run(["notifications"]).output
        #expect(listed.contains("• @bob liked your tweet") && listed.contains("• @bob followed you"))
        #expect(listed.contains("hello @bob"), "the tweet it is about is shown under it")
        #expect(try alice.run(["notifications"]).output == "No unread notifications.\n", "shown, so read")
        let all = try alice.run(["notifications", "--all"]).output
        #expect(all.contains("  @bob followed you") && !all.contains("•"), "read ones, unmarked")
        #expect(try alice.json(["notifications", "--all"])["unread"] == 0)
        #expect(try alice.run(["whoami"]).output.contains("0 unread notifications"))

        // Dismissing: by the id the listing shows; someone else's id is not found, and removes nothing.
        guard case .array(let listedJSON)? = try alice.json(["notifications", "--all"])["notifications"] else {
            Issue.record("no notifications array")
            return
        }
        let ids = try listedJSON.map { try TwctlSocialTests.id($0["id"]) }
        #expect(ids.count == 2)
        #expect(all.contains("#\(ids[0])") && all.contains("#\(ids[1])"), "each shown with its id")
        let refused = try bob.run(["notifications", "--dismiss", ids[0]])
        #expect(refused.status != 0 && refused.error.contains("Notification \(ids[0])"), "\(refused)")
        #expect(
            try alice.run(["notifications", "--dismiss", ids[0]]).output
                == "Dismissed #\(ids[0]); 0 unread notifications.\n")
        let left = try alice.run(["notifications", "--all"]).output
        #expect(!left.contains("#\(ids[0])") && left.contains("#\(ids[1])"))
        #expect(try alice.run(["notifications", "--clear"]).output == "Cleared; 0 unread notifications.\n")
        #expect(try alice.run(["notifications", "--all"]).output == "No notifications.\n")
        #expect(try alice.run(["notifications", "--clear", "--dismiss", "1"]).status != 0, "one or the other")
        #expect(try alice.run(["notifications", "--clear", "--follow"]).status != 0)

        let follower = try RunningProduct(
            "twctl", ["notifications", "--follow"],
            environment: ["TWITTERD_SOCKET": alice.socket, "XDG_CONFIG_HOME": alice.config, "NO_COLOR": "1"])
        try bob.run(["reply", root, "hi back"])
        var seen: [String] = []
        while let line = follower.readLine() {
            seen.append(line)
            if line.contains("replied to you") { break }
        }
        #expect(seen.contains { $0.contains("• @bob replied to you") })
        follower.interrupt()
    }

    @Test func searchTagTrendingMuteAndBlock() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        let bob = try Person("bob", on: daemon)
        try alice.run(["post", "Morning #Coffee at the café"])
        try bob.run(["post", "tea, not #coffee"])
        #expect(try bob.run(["search", "CAFE morning"]).output.contains("Morning #Coffee at the café"))
        #expect(try bob.run(["search", "nothing-here"]).output == "Nothing found.\n")
        let bad = try bob.run(["search", "\"open"])
        #expect(bad.status == 65 && bad.error.contains("query: has a \" that is never closed"))
        #expect(try bob.run(["search", "--users", "AL"]).output == "@alice\n")
        let tagged = try bob.run(["tag", "#COFFEE"]).output
        #expect(tagged.contains("Morning #Coffee") && tagged.contains("tea, not #coffee"))
        #expect(try bob.run(["trending", "--hours", "1"]).output == "#coffee  2 people · 2 tweets\n")

        #expect(try bob.run(["mute", "alice"]).output == "Muted @alice.\n")
        #expect(try bob.run(["muted"]).output == "@alice\n")
        #expect(try bob.run(["user", "alice"]).output.contains("you mute them"))
        #expect(!(try bob.run(["tag", "coffee"]).output.contains("Morning")), "a muted account's tweet is hidden")
        #expect(try bob.run(["unmute", "alice"]).output == "No longer muting @alice.\n")
        #expect(try bob.run(["muted"]).output == "Muting no one.\n")

        #expect(try alice.run(["block", "bob"]).output == "Blocked @bob.\n")
        #expect(try alice.run(["blocked"]).output == "@bob\n")
        let refused = try bob.run(["follow", "alice"])
        #expect(refused.status == 77 && refused.error.contains("This account blocks you"))
        #expect(try alice.run(["unblock", "bob"]).output == "No longer blocking @bob.\n")
        #expect(try bob.run(["follow", "alice"]).status == 0)
    }

    @Test func mentionsAndTagsStandOutOnATerminalUnlessNoColor() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try Person("alice", on: daemon)
        _ = try Person("bob", on: daemon)
        try alice.run(["post", "hey @bob, see #Swift and @nobody"])
        func onTerminal(noColor: Bool) throws -> String {
            // script(1) gives twctl a terminal, as a person's shell would.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let twctl = BuiltProducts.path(of: "twctl")
            process.arguments = ["-qec", "\(twctl) timeline --public", "/dev/null"]
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = noColor ? "1" : nil
            environment["TWITTERD_SOCKET"] = alice.socket
            environment["XDG_CONFIG_HOME"] = alice.config
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let colored = try onTerminal(noColor: false)
        #expect(colored.contains("\u{1B}[1;34m@bob\u{1B}[0m,"), "the mention, not its comma")
        #expect(colored.contains("\u{1B}[1;35m#Swift\u{1B}[0m"))
        #expect(!colored.contains("\u{1B}[1;34m@nobody"), "no account, no mention")
        let plain = try onTerminal(noColor: true)
        #expect(plain.contains("hey @bob, see #Swift and @nobody") && !plain.contains("\u{1B}["))
        #expect(!(try alice.run(["--json", "timeline", "--public"]).output.contains("\u{1B}[")))
    }
}
