import Foundation
import TestSupport

/// A real terminal for `twctl tui`: a tmux server of its own (`-L`), one window of a given size running a
/// command. Keys go in with `send-keys`, the screen comes out with `capture-pane`, and a test waits for what
/// it expects to appear on the screen, up to a deadline.
final class TmuxPane {
    let server = "twtui-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let target = "tui"

    /// Why a pane did not show what was awaited.
    struct Timeout: Error, CustomStringConvertible {
        let awaited: String
        let screen: String
        var description: String { "waited for \(awaited); the screen was:\n\(screen)" }
    }

    /// Starts `command` (run by sh) in a `width` × `height` window; the pane stays after the command exits so
    /// its last screen can be read.
    init(_ command: String, environment: [String: String], width: Int = 100, height: Int = 30) throws {
        let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        try tmux(
            "-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)",
            "env " + exports.joined(separator: " ") + " sh -c " + Self.quoted(command))
        try tmux("set-option", "-t", target, "remain-on-exit", "on")
    }

    deinit {
        // `kill-server` alone left servers and their panes running after their tests: the pane's command and the
        // server are ended by their pids, so no test leaves a TUI retrying a daemon that is gone.
        let server = try? tmux("display-message", "-p", "-t", target, "#{pid}")
        if let pane = try? tmux("display-message", "-p", "-t", target, "#{pane_pid}"),
            let process = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(process, SIGKILL)
        }
        _ = try? tmux("kill-server")
        if let server, let process = Int32(server.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(process, SIGKILL)
        }
    }

    /// `twctl tui` itself in the pane, exec'd so the pane's process is twctl.
    convenience init(
        tui socket: String, config: String, extra: [String: String] = [:], width: Int = 100, height: Int = 30
    )
        throws
    {
        var environment = ["TWITTERD_SOCKET": socket, "XDG_CONFIG_HOME": config, "LANG": "C.UTF-8", "TERM": "screen"]
        environment.merge(extra) { _, new in new }
        try self.init(
            "exec " + BuiltProducts.path(of: "twctl") + " tui", environment: environment, width: width, height: height)
    }

    /// Types `keys`, tmux key names (`Enter`, `Escape`, `Down`, `C-c`) or single characters.
    func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", target] + keys)
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try tmux("send-keys", "-t", target, "-l", text)
    }

    /// The screen as text, one line a row; with `escapes`, with the attributes as SGR escapes.
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", target] + (escapes ? ["-e"] : []))
    }

    /// Waits until the screen satisfies `test`; returns that screen.
    @discardableResult
    func waitFor(
        _ awaited: String, seconds: Double = 30, escapes: Bool = false, _ test: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen(escapes: escapes)
            if test(last) { return last }
            usleep(20_000)
        }
        throw Timeout(awaited: awaited, screen: last)
    }

    /// Waits until `text` is on the screen.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 30) throws -> String {
        try waitFor("\"\(text)\"", seconds: seconds) { $0.contains(text) }
    }

    /// Waits until the pane's command has exited.
    func waitForExit(seconds: Double = 30) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try tmux("display-message", "-p", "-t", target, "#{pane_dead}").hasPrefix("1") { return }
            usleep(20_000)
        }
        throw Timeout(awaited: "the command's exit", screen: try screen())
    }

    /// Waits until `text` is gone from the screen.
    @discardableResult
    func waitForAbsence(of text: String, seconds: Double = 30) throws -> String {
        try waitFor("no \"\(text)\"", seconds: seconds) { !$0.contains(text) }
    }

    /// The line of the screen that starts with `prefix` (the selection marker `> `, say).
    func line(startingWith prefix: String) throws -> String? {
        try screen().split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// The process called `name` in the pane: the pane's own process or one of its descendants.
    func processID(named name: String = "twctl") throws -> Int32? {
        let pane = try tmux("display-message", "-p", "-t", target, "#{pane_pid}")
        var queue = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)).map { [$0] } ?? []
        while !queue.isEmpty {
            let process = queue.removeFirst()
            let command = (try? String(contentsOfFile: "/proc/\(process)/comm", encoding: .utf8)) ?? ""
            if command.trimmingCharacters(in: .whitespacesAndNewlines) == name { return process }
            let children =
                (try? String(contentsOfFile: "/proc/\(process)/task/\(process)/children", encoding: .utf8)) ?? ""
            queue += children.split(separator: " ").compactMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        return nil
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) throws {
        try tmux("resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)")
    }

    @discardableResult
    private func tmux(_ arguments: String...) throws -> String {
        try tmux(arguments)
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        // posix_spawn and waitpid rather than Foundation's Process: `new-session` forks the tmux server, and
        // Process's wait for the client did not always return then. The output goes to a file, not a pipe,
        // whose write end the server would hold open for as long as it runs.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(server)-\(UUID().uuidString)").path
        defer { unlink(file) }
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        // `swift test` may run with NO_COLOR set; the pane's command says itself whether it wants colour.
        environment.removeValue(forKey: "NO_COLOR")
        let argv = (["/usr/bin/tmux", "-L", server] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/usr/bin/tmux", &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnFailed(code: spawned) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// tmux could not be started.
    struct SpawnFailed: Error {
        let code: Int32
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
