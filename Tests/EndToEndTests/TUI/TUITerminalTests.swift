import Foundation
import TestSupport
import Testing

/// The terminal is given back exactly as it was found: the tty modes (`stty -g` before and after), the shell's
/// screen (the alternate screen is left), on `q`, on Ctrl-C, on SIGTERM, and on a crash.
@Suite(.serialized) struct TUITerminalTests {
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case quitKey, controlC, terminate, crash
        var testDescription: String { rawValue }
    }

    @Test(arguments: Ending.allCases)
    func theTerminalIsRestored(ending: Ending) async throws {
        let people = try await TUIPeople()
        try people.bob.post("a tweet on screen")
        let folder = try TemporaryDirectory.make(prefix: "twtui-stty")
        let twctl = BuiltProducts.path(of: "twctl")
        let pane = try TmuxPane(
            "stty -g > \(folder)/before; echo shell-was-here; \(twctl) tui; echo \"exit=$?\"; stty -g > \(folder)/after",
            environment: [
                "TWITTERD_SOCKET": people.socket, "XDG_CONFIG_HOME": people.alice.config, "LANG": "C.UTF-8",
                "TERM": "screen",
            ])
        try pane.waitFor("a tweet on screen")
        #expect(!(try pane.screen().contains("shell-was-here")))  // the alternate screen
        let expectedStatus: String
        switch ending {
        case .quitKey:
            try pane.press("q")
            expectedStatus = "exit=0"
        case .controlC:
            try pane.press("C-c")
            expectedStatus = "exit=0"
        case .terminate:
            kill(try #require(try pane.processID()), SIGTERM)
            expectedStatus = "exit=0"
        case .crash:
            kill(try #require(try pane.processID()), SIGSEGV)
            expectedStatus = "exit=139"  // died of SIGSEGV, as a crash does
        }
        let screen = try pane.waitFor(expectedStatus)
        #expect(screen.contains("shell-was-here"))
        #expect(!screen.contains("a tweet on screen"))
        try pane.waitForExit()
        let before = try String(contentsOfFile: folder + "/before", encoding: .utf8)
        let after = try String(contentsOfFile: folder + "/after", encoding: .utf8)
        #expect(!before.isEmpty)
        #expect(before == after)
    }

    /// The screenshot in README and docs/tui-screenshot.txt is this test's capture, with the parts that change
    /// from run to run (the temporary socket, the ages) written as they would be on a real machine. Run with
    /// TWITTERD_UPDATE_SCREENSHOT=1 to write it again after changing the screen.
    @Test func theReadmeScreenshotIsTheRealScreen() async throws {
        let people = try await TUIPeople()
        try people.alice.post("Morning! Coffee first, then the #release notes.")
        try people.bob.post("@alice the build is green 🎉 https://example.com/ci/1234")
        try people.bob.post("日本語のツイートも二桁で折り返す — wide text wraps by columns, not characters.")
        let pane = try people.aliceScreen(width: 80, height: 24)
        try pane.waitFor("日本語")
        try pane.waitFor("2 Notifications 1")
        let screen = try pane.screen()
        let shown = Self.normalized(screen, socket: people.socket)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = root.appendingPathComponent("docs/tui-screenshot.txt").path
        let readme = root.appendingPathComponent("README.md").path
        if ProcessInfo.processInfo.environment["TWITTERD_UPDATE_SCREENSHOT"] != nil {
            try shown.write(toFile: file, atomically: true, encoding: .utf8)
            var text = try String(contentsOfFile: readme, encoding: .utf8)
            if let start = text.range(of: "<!-- tui-screenshot -->\n```\n"),
                let end = text.range(of: "```\n<!-- /tui-screenshot -->", range: start.upperBound..<text.endIndex)
            {
                text.replaceSubrange(start.upperBound..<end.lowerBound, with: shown)
                try text.write(toFile: readme, atomically: true, encoding: .utf8)
            }
        }
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(shown == saved, "the screen changed; run with TWITTERD_UPDATE_SCREENSHOT=1 and commit the result")
        #expect(try String(contentsOfFile: readme, encoding: .utf8).contains(saved))
    }

    /// The screen with the temporary socket written as the system one, ages as `now`, lines right-trimmed, the
    /// status line cut after the keys every run shows.
    static func normalized(_ screen: String, socket: String) -> String {
        screen.replacingOccurrences(of: socket, with: "/run/twitterd/twitterd.sock")
            .replacing(/· [0-9]+[mh] ·/, with: "· now ·")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var line = String(line)
                // How much of the keys the status line shows depends on the temporary socket's length: keep the
                // part every run shows.
                if line.contains("/run/twitterd/twitterd.sock"), let keys = line.range(of: "· j/k move · Enter thread")
                {
                    line = String(line[..<keys.upperBound]) + " …"
                }
                while line.hasSuffix(" ") { line.removeLast() }
                return line
            }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines) + "\n"
    }
}
