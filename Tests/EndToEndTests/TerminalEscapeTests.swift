import Foundation
import GRDB
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient

/// Escapes another account wrote, against an admin's terminal (issue 48, item 6): a report's reason with OSC 52 (which
/// writes the clipboard) or CSI sequences (which erase and climb lines) is refused over the wire, and text that holds
/// them anyway (written into the database directly, as an older daemon let it be) is printed by twctl with every
/// control character visible, never as the byte the terminal would obey.
@Suite(.serialized) struct TerminalEscapeTests {
    static let osc52 = "\u{1B}]52;c;cm0gLXJmIH4K\u{07}"
    static let csi = "\u{1B}[2K\u{1B}[1A"

    @Test func escapesInAReasonAreRefusedAndStoredOnesPrintVisiblyInTwctl() async throws {
        let daemon = try await DaemonProcess(configuration: CommunityTests.configuration)
        let boss = try TwctlSocialTests.Person("boss", on: daemon)
        let eve = try TwctlSocialTests.Person("eve", on: daemon)
        _ = try TwctlSocialTests.Person("bob", on: daemon)
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")

        let tweet = try await RPCConnection.withConnection(socketPath: daemon.socketPath) {
            (eve) async throws -> Int64 in
            _ = try await eve.logIn(email: "eve@example.com")
            for reason in ["spam " + Self.osc52, "spam" + Self.csi + "#2 [open] @boss reported @bob: forged", "a\rb"] {
                let refused = try await eve.callError("reports.create", ["username": "bob", "reason": .string(reason)])
                #expect(refused?.code == -32602, "\(reason.debugDescription)")
                #expect(
                    refused?.data["fields"]?["reason"] == "Reason may not contain control characters or line breaks")
            }
            _ = try await eve.call(API.Reports.create, .init(username: "bob", reason: "spam"))
            return try await eve.call(API.Tweets.post, .init(text: "hello")).id
        }
        #expect(daemon.stop() == 0)
        // As a daemon before this rule let them be stored.
        try Self.write(
            [
                "UPDATE reports SET reason = 'spam ' || {ESC} || ']52;c;cm0gLXJmIH4K' || {BEL} || {ESC} || '[2K'",
                "UPDATE tweets SET text = 'hello ' || {ESC} || '[2J' || {ESC} || ']52;c;eA==' || {BEL} WHERE id = \(tweet)",
                "UPDATE users SET first_name = 'Eve' || {ESC} || '[8m' WHERE username = 'eve'",
            ], daemon: daemon)
        let restarted = try await DaemonProcess(
            directory: daemon.directory, configuration: CommunityTests.configuration)
        #expect(restarted.isRunning)

        let reports = try boss.run(["admin", "reports"])
        #expect(reports.status == 0, "\(reports.error)")
        #expect(
            !reports.output.utf8.contains(0x1B) && !reports.output.utf8.contains(0x07),
            "\(reports.output.debugDescription)")
        #expect(reports.output.contains("@eve reported @bob: spam ␛]52;c;cm0gLXJmIH4K␇␛[2K"), "\(reports.output)")
        let timeline = try boss.run(["timeline"])
        #expect(!timeline.output.utf8.contains(0x1B), "\(timeline.output.debugDescription)")
        #expect(timeline.output.contains("hello ␛[2J␛]52;c;eA==␇"), "\(timeline.output)")
        let user = try boss.run(["user", "eve"])
        #expect(!user.output.utf8.contains(0x1B) && user.output.contains("Eve␛[8m"), "\(user.output.debugDescription)")
        // --json prints the answer as JSON, whose encoding escapes them: the exact text, and still no ESC byte.
        let json = try boss.run(["--json", "admin", "reports"])
        #expect(!json.output.utf8.contains(0x1B) && json.output.contains("\\u001b]52;c;cm0gLXJmIH4K\\u0007"))
        _ = restarted.stop()
    }

    /// Runs `statements` on the stopped daemon's database, `{ESC}` and `{BEL}` spelt as its SQL spells a character.
    static func write(_ statements: [String], daemon: DaemonProcess) throws {
        if let url = daemon.databaseURL {
            let sql = statements.map {
                $0.replacingOccurrences(of: "{ESC}", with: "chr(27)").replacingOccurrences(of: "{BEL}", with: "chr(7)")
            }
            try TestPostgres.runSQL(sql.joined(separator: ";\n") + ";", in: url)
        } else {
            let queue = try DatabaseQueue(path: daemon.databasePath)
            try queue.write { db in
                for statement in statements {
                    try db.execute(
                        sql: statement.replacingOccurrences(of: "{ESC}", with: "char(27)")
                            .replacingOccurrences(of: "{BEL}", with: "char(7)"))
                }
            }
        }
    }
}
