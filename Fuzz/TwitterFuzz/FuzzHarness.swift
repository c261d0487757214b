import Dispatch
import Foundation
import JSONRPC

/// Runs one line through the real request processor and checks what a client may rely on: an answer is one
/// line of valid JSON-RPC, and nothing crashes.
enum FuzzHarness {
    static let processor = FuzzRouter.processor()

    static func check(_ line: [UInt8]) {
        // The harness is synchronous; the processor is async. A semaphore bridges them in this test binary.
        let done = DispatchSemaphore(value: 0)
        let answer = Box()
        Task {
            answer.bytes = await processor.respond(toLine: line, context: false).response
            done.signal()
        }
        done.wait()
        guard let bytes = answer.bytes else { return }
        guard !bytes.contains(UInt8(ascii: "\n")) else { fatalError("an answer spans lines") }
        guard let value = try? JSONParser(maximumDepth: 16).parse(bytes) else {
            fatalError("the answer is not valid JSON: \(String(decoding: bytes, as: UTF8.self))")
        }
        switch value {
        case .object(let members):
            guard members["jsonrpc"] == "2.0", members["id"] != nil else { fatalError("not a response: \(value)") }
        case .array(let members):
            guard !members.isEmpty else { fatalError("an empty batch answer") }
        default:
            fatalError("an answer that is neither an object nor an array")
        }
    }

    final class Box: @unchecked Sendable {
        // @unchecked: written once by the task before the semaphore is signalled, read after the wait.
        var bytes: [UInt8]?
    }
}
