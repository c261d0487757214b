import Foundation
import JSONRPC
import Testing

/// Every input of the fuzzing corpus (Fuzz/corpus), including any crash the fuzzer ever found, replayed
/// through the request processor on each test run: an answer is one line of valid JSON-RPC.
struct FuzzCorpusReplayTests {
    static var corpus: [URL] {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func corpusIsThere() {
        #expect(Self.corpus.count >= 25)
    }

    @Test(arguments: corpus)
    func replay(file: URL) async throws {
        let line = Array(try Data(contentsOf: file))
        let outcome = await RequestProcessorTests.processor().respond(toLine: line, context: false)
        guard let answer = outcome.response else { return }
        #expect(!answer.contains(UInt8(ascii: "\n")))
        let value = try JSONParser(maximumDepth: 16).parse(answer)
        switch value {
        case .object(let members):
            #expect(members["jsonrpc"] == "2.0")
            #expect(members["id"] != nil)
        case .array(let members):
            #expect(!members.isEmpty)
        default:
            Issue.record("an answer that is neither an object nor an array")
        }
    }
}
