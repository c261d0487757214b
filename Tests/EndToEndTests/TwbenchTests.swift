import Foundation
import JSONRPC
import TestSupport
import Testing

/// twbench keeps working: one second of each kind of load against a test daemon, every answer checked.
struct TwbenchTests {
    @Test func oneSecondOfEachLoadAnswersWithoutErrors() async throws {
        let directory = try TemporaryDirectory.make()
        let config = directory + "/fast.toml"
        try DaemonProcess.fastHashing.write(toFile: config, atomically: true, encoding: .utf8)
        let seeded = try runProduct(
            "twitterd",
            [
                "seed", "--users", "5", "--tweets", "100", "--follows", "2", "--database",
                directory + "/twitterd.sqlite", "--config", config,
            ]
        )
        #expect(seeded.status == 0)
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        for method in ["ping", "fetch", "post", "mix", "login", "home", "search"] {
            let result = try runProduct(
                "twbench",
                [
                    "load", "--socket", daemon.socketPath, "--method", method, "--connections", "2", "--depth", "4",
                    "--duration", "1", "--accounts", "5", "--json",
                ]
            )
            #expect(result.status == 0, "\(method): \(result.output) \(result.error)")
            let reports = try JSONParser().parse(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(reports[0]?["errors"] == 0, "\(method)")
            guard case .number(let requests)? = reports[0]?["requests"] else {
                Issue.record("\(method): no request count")
                continue
            }
            #expect((requests.int ?? 0) > 0, "\(method)")
        }
    }

    @Test func aWrongAnswerCountsAsAnError() async throws {
        let directory = try TemporaryDirectory.make()
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        let result = try runProduct(
            "twbench", ["load", "--socket", daemon.socketPath, "--method", "login", "--duration", "1", "--json"]
        )
        // No seeded accounts: every login fails, and twbench must say so rather than count successes.
        #expect(result.status != 0)
        let reports = try JSONParser().parse(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(reports[0]?["requests"] == 0)
        guard case .number(let errors)? = reports[0]?["errors"] else {
            Issue.record("no error count")
            return
        }
        #expect((errors.int ?? 0) > 0)
    }
}
