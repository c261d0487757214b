import Foundation
import TestSupport
import Testing

/// `twctl tui`, the real binary in a real terminal (tmux), against a real daemon: every key of issue #37, live
/// updates, reconnection, resizing, NO_COLOR, the terminal given back, and an idle screen that costs no CPU.
@Suite(.serialized) struct TUITests {
    @Test func movingOpeningAndGoingBack() async throws {
        let people = try await TUIPeople()
        let first = try people.bob.post("the first tweet")
        try people.bob.post("the second tweet")
        let third = try people.bob.post("the third tweet")
        let pane = try people.aliceScreen()
        // Alice follows nobody: home shows everyone's tweets, newest first, the newest selected.
        try pane.waitFor("Home · everyone's tweets until you follow someone")
        try pane.waitFor("> @bob · now · #\(third)")
        try pane.press("j")
        try pane.waitFor("> @bob · now · #\(third - 1)")
        try pane.press("Down")
        try pane.waitFor("> @bob · now · #\(first)")
        try pane.press("k")
        try pane.waitFor("> @bob · now · #\(third - 1)")
        try pane.press("Up")
        try pane.waitFor("> @bob · now · #\(third)")
        try pane.press("G")
        try pane.waitFor("> @bob · now · #\(first)")
        try pane.press("g")
        try pane.waitFor("> @bob · now · #\(third)")

        // Enter opens the thread; a reply shows nested under it, the opened tweet marked.
        let reply = try people.bob.twctl(["reply", "\(third)", "a reply to the third"])
        #expect(reply.status == 0)
        // The reply arrives live at the top, where the reader is: the list takes it in and selects it.
        try pane.waitFor("> @bob · now · #\(third + 1) · reply to #\(third)")
        try pane.press("j")
        try pane.waitFor("> @bob · now · #\(third)")
        try pane.press("Enter")
        try pane.waitFor("Thread of #\(third)")
        let thread = try pane.waitFor("└ @bob")
        #expect(thread.contains("> ▶ @bob · now · #\(third)"))
        #expect(thread.contains("a reply to the third"))
        try pane.press("Escape")
        try pane.waitForAbsence(of: "Thread of")
        try pane.press("Enter")
        try pane.waitFor("Thread of #\(third)")
        try pane.press("q")  // q on a page goes back, it does not quit
        try pane.waitForAbsence(of: "Thread of")
        try pane.waitFor("Home · everyone's")

        // ? lists the keys; q closes the list.
        try pane.press("?")
        try pane.waitFor("open the selected tweet's thread")
        try pane.press("q")
        try pane.waitForAbsence(of: "open the selected tweet's thread")

        // The tabs.
        try pane.press("5")
        try pane.waitFor(" Public ─")
        try pane.press("2")
        try pane.waitFor(" Notifications ─")
        try pane.press("3")
        try pane.waitFor(" Messages ─")
        try pane.waitFor("No conversations.")
        try pane.press("1")
        try pane.waitFor("Home · everyone's")

        // q on a tab quits.
        try pane.press("q")
        try pane.waitForExit()
    }

    @Test func profileFollowAndRefresh() async throws {
        let people = try await TUIPeople()
        try people.bob.post("bob was here")
        let pane = try people.aliceScreen()
        try pane.waitFor("> @bob · now")
        try pane.press("u")
        try pane.waitFor("1 tweet · 0 followers · 0 following")
        let profile = try pane.waitFor("joined ")
        let month = DateFormatter.monthAndYear.string(from: Date())
        #expect(profile.contains("joined \(month)"))
        try pane.press("f")
        try pane.waitFor("following · f unfollows")
        try pane.waitFor("1 tweet · 1 follower · 0 following")
        // R reads the page again: the profile is not live, a tweet posted meanwhile shows after R.
        try people.bob.post("posted while alice looked")
        try pane.press("R")
        try pane.waitFor("2 tweets · 1 follower")
        try pane.waitFor("posted while alice looked")
        try pane.press("f")
        try pane.waitFor("f follows")
        try pane.waitFor("2 tweets · 0 followers")
        try pane.press("Escape")
        try pane.waitFor("Home · everyone's")
    }

    @Test func composeReplyLikeAndRepost() async throws {
        let people = try await TUIPeople()
        let bobs = try people.bob.post("something to answer")
        let pane = try people.aliceScreen()
        try pane.waitFor("> @bob · now · #\(bobs)")

        try pane.press("n")
        try pane.waitFor("┌ New tweet")
        try pane.type("hello from the tui 👋🏽")
        try pane.waitFor("─ 20/140")  // the emoji with its skin tone is one character
        try pane.press("Enter")
        try pane.waitFor("posted #")
        let home = try pane.waitFor("hello from the tui 👋🏽")
        #expect(!home.contains("┌ New tweet"))

        // Past the limit the count turns red and the daemon's refusal is shown; Esc cancels.
        try pane.press("n")
        try pane.type(String(repeating: "x", count: 141))
        try pane.waitFor("141/140")
        let red = try pane.screen(escapes: true)
        #expect(red.contains("141/140"))
        try pane.press("Enter")
        try pane.waitFor("Tweet is 141 characters; the limit is 140")
        try pane.press("Escape")
        try pane.waitForAbsence(of: "┌ New tweet")

        // r replies to the selected tweet (bob's, after moving down past alice's own).
        try pane.press("j")
        try pane.waitFor("> @bob · now · #\(bobs)")
        try pane.press("r")
        try pane.waitFor("┌ Reply to @bob")
        try pane.type("my answer")
        try pane.press("Enter")
        try pane.waitFor("replied with #")
        let thread = try people.bob.twctl(["thread", "\(bobs)"])
        #expect(thread.output.contains("@bob my answer"))

        // l likes and unlikes, t reposts and un-reposts the selected tweet.
        try pane.press("G")
        try pane.waitFor("> @bob · now · #\(bobs)")
        try pane.press("l")
        try pane.waitFor("1 like (you)")
        try pane.press("l")
        try pane.waitForAbsence(of: "1 like (you)")
        try pane.press("t")
        try pane.waitFor("1 repost (you)")
        try pane.press("t")
        try pane.waitForAbsence(of: "(you)")
    }

    @Test func bookmarkingTheSelectedTweetAndTakingItBack() async throws {
        let people = try await TUIPeople()
        let bobs = try people.bob.post("worth keeping")
        let pane = try people.aliceScreen()
        try pane.waitFor("> @bob · now · #\(bobs)")
        try pane.press("b")
        try pane.waitFor("bookmarked #\(bobs)")
        #expect(try people.alice.twctl(["bookmarks"]).output.contains("worth keeping"), "the daemon keeps it")
        #expect(!(try people.bob.twctl(["bookmarks"]).output.contains("worth keeping")), "and tells bob nothing")
        try pane.press("b")
        try pane.waitFor("bookmark removed from #\(bobs)")
        #expect(!(try people.alice.twctl(["bookmarks"]).output.contains("worth keeping")))
    }

    @Test func searchWithTheQueryLanguage() async throws {
        let people = try await TUIPeople()
        try people.bob.post("dark roast coffee")
        try people.alice.post("coffee from alice")
        try people.bob.post("tea only")
        let pane = try people.aliceScreen()
        try pane.press("/")
        try pane.waitFor("┌ Search")
        try pane.type("coffee from:bob")
        try pane.press("Enter")
        // Waited for as a whole: a capture taken while the screen is being redrawn mixes the old page and the new.
        try pane.waitFor("bob's coffee alone under the query") {
            $0.contains("Search: coffee from:bob") && $0.contains("dark roast coffee")
                && !$0.contains("coffee from alice") && !$0.contains("tea only")
        }
        try pane.press("4")
        try pane.waitFor("dark roast coffee")
    }

    @Test func liveTweetsWaitAsNNewAndNotificationsCount() async throws {
        let people = try await TUIPeople()
        try people.bob.post("one")
        try people.bob.post("two")
        let pane = try people.aliceScreen()
        try pane.waitFor("> @bob · now")
        // At the top, a new tweet shows at once.
        let live = try people.bob.post("live at the top")
        try pane.waitFor("> @bob · now · #\(live)")
        // Scrolled away, new tweets wait: the list does not jump.
        try pane.press("j")
        try pane.waitFor("> @bob · now · #\(live - 1)")
        try people.bob.post("held back 1")
        try people.bob.post("held back 2")
        let held = try pane.waitFor("2 new · g to show")
        #expect(!held.contains("held back 1"))
        #expect(held.contains("> @bob · now · #\(live - 1)"))
        try pane.press("g")
        try pane.waitFor("held back 2")
        try pane.waitForAbsence(of: "new · g to show")
        // A mention is a notification: the badge counts it until the tab is read.
        try people.bob.post("hey @alice look")
        try pane.waitFor("2 Notifications 1")
        try pane.press("2")
        try pane.waitFor("@bob mentioned you")
        try pane.waitFor("the badge gone") { !$0.contains("Notifications 1") }
    }

    @Test func messagesArriveLiveWithTheirUnreadBadge() async throws {
        let people = try await TUIPeople()
        // Alice takes messages from the people she follows (the default).
        #expect(try people.alice.twctl(["follow", "bob"]).status == 0)
        #expect(try people.bob.twctl(["dm", "alice", "lunch at noon?"]).status == 0)
        let pane = try people.aliceScreen()
        try pane.waitFor("3 Messages 1")
        try pane.press("3")
        try pane.waitFor("@bob: lunch at noon?")
        try pane.waitFor("1 unread")
        // A message in the open conversation arrives live and is counted.
        #expect(try people.bob.twctl(["dm", "alice", "or at one"]).status == 0)
        try pane.waitFor("@bob: or at one")
        try pane.waitFor("2 unread")
        try pane.waitFor("3 Messages 2")
    }

    @Test func theDaemonGoingAwayAndComingBack() async throws {
        let people = try await TUIPeople()
        try people.bob.post("before the restart")
        let pane = try people.aliceScreen()
        try pane.waitFor("before the restart")
        people.daemon.stop()
        try pane.waitFor("daemon gone · reconnecting…")
        let again = try await DaemonProcess(
            directory: people.daemon.directory,
            configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        try pane.waitFor("reconnected; caught up")
        try pane.waitForAbsence(of: "reconnecting")
        // The session was resumed and the subscriptions made again: live tweets flow.
        try people.bob.post("after the restart")
        try pane.waitFor("after the restart")
        _ = again
    }

    @Test func resizingRedrawsForTheNewSize() async throws {
        let people = try await TUIPeople()
        try people.bob.post(String(repeating: "wrap ", count: 24))
        let pane = try people.aliceScreen(width: 80, height: 24)
        // 120 columns of text wrap onto a second line at 80; the status line is the 24th. Waited for as a whole:
        // a capture can fall between two rows of one redraw.
        var screen = try pane.waitFor("the tweet wrapped at 80 columns") {
            let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 24 && lines[3].contains("wrap") && lines[4].contains("wrap")
                && lines[23].hasPrefix(" @alice · ")
        }
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2].hasPrefix("> @bob"))
        try pane.resize(width: 140, height: 40)
        // At 140 × 40 the status line is the 40th and the text is one line: the counts follow it at once.
        screen = try pane.waitFor("the screen redrawn at 140 × 40") {
            let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 40 && lines[39].hasPrefix(" @alice · ") && lines[3].contains("wrap")
                && lines[4].contains("0 likes")
        }
        lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines[4].contains("wrap"))
    }

    @Test(arguments: [false, true])
    func colourUnlessNoColor(noColor: Bool) async throws {
        let people = try await TUIPeople()
        try people.bob.post("hi @alice #tagged")
        let pane = try people.aliceScreen(extra: noColor ? ["NO_COLOR": "1"] : [:])
        // SGR 30–37 set a foreground colour: mentions blue, tags magenta, the unread badge yellow.
        func colours(_ screen: String) -> Int { screen.matches(of: /\e\[[0-9;]*3[1-7][;m]/).count }
        // Waited for until the mention's notification has come too (its badge is drawn in colour): one screen
        // with the tweet and the badge, so what is checked is one whole frame.
        let screen = try pane.waitFor("the tweet and the badge", escapes: true) {
            $0.contains("#tagged") && Self.plain($0).contains("2 Notifications 1") && (noColor || colours($0) > 0)
        }
        if noColor {
            #expect(colours(screen) == 0)
            #expect(screen.contains("\u{1B}[7m"))  // reverse video stays: it is not colour
        } else {
            #expect(colours(screen) > 0)
        }
    }

    @Test func anIdleScreenUsesNoCPU() async throws {
        let people = try await TUIPeople()
        try people.bob.post("quiet")
        let pane = try people.aliceScreen()
        try pane.waitFor("quiet")
        let process = try #require(try pane.processID())
        let before = try Self.cpuTicks(of: process)
        // A measurement window, not a wait for an event: the screen is drawn and nothing happens for 2 s.
        try await Task.sleep(for: .seconds(2))
        let after = try Self.cpuTicks(of: process)
        // Clock ticks are 10 ms: a polling loop of any speed shows up; a client blocked in epoll shows 0 or 1.
        #expect(after - before <= 2, "\(after - before) ticks of CPU in 2 idle seconds")
    }

    /// A screen captured with its escapes, as text alone.
    static func plain(_ screen: String) -> String {
        screen.replacing(/\e\[[0-9;]*[A-Za-z]/, with: "")
    }

    /// utime + stime of `process`, in clock ticks (/proc/PID/stat fields 14 and 15).
    static func cpuTicks(of process: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}

extension DateFormatter {
    /// `November 2026`.
    static var monthAndYear: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "LLLL yyyy"
        return formatter
    }
}
