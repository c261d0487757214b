import Foundation
import JSONRPC
import TestSupport
import Testing

/// Runs every example of docs/PROTOCOL.md, as a reader would paste it, against a live daemon.
struct ProtocolDocumentTests {
    struct Example: CustomStringConvertible {
        let command: String
        let expected: [String]
        var description: String { command }
    }

    /// Each `$ ` line of a ```console block, with the lines under it as the expected answer.
    static func examples() throws -> [Example] {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: source.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        var examples: [Example] = []
        var inConsole = false
        var command: String?
        var expected: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```console") { inConsole = true; continue }
            guard inConsole else { continue }
            if line.hasPrefix("```") || line.hasPrefix("$ ") {
                if let command { examples.append(Example(command: command, expected: expected)) }
                command = nil
                expected = []
                if line.hasPrefix("```") { inConsole = false } else { command = String(line.dropFirst(2)) }
            } else if command != nil {
                expected.append(line)
            }
        }
        return examples
    }

    @Test func everyExampleAnswersAsDocumented() async throws {
        let examples = try Self.examples()
        #expect(examples.count >= 8)
        // alice becomes an admin in the document itself: root links its uid to her and grants her the role.
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        for example in examples {
            let command = example.command.replacingOccurrences(
                of: "/run/twitterd/twitterd.sock", with: daemon.socketPath
            )
            let result = try runShell(command)
            let actual = result.split(separator: "\n").map(String.init)
            #expect(actual.count == example.expected.count, "\(example.command)\n got: \(result)")
            for (got, want) in zip(actual, example.expected) {
                if let wantJSON = try? JSONParser().parse(want), let gotJSON = try? JSONParser().parse(got) {
                    #expect(JSONPattern.matches(gotJSON, wantJSON), "\(example.command)\n got: \(got)")
                } else {
                    #expect(got == want, "\(example.command)")
                }
            }
        }
    }

    private func runShell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
