import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Malformed and malicious input against the live daemon: each gets its documented error, other
/// connections keep being served, and memory stays bounded.
@Suite(.serialized) struct HostileInputTests {
    static let ping = #"{"jsonrpc":"2.0","method":"system.ping","id":"probe"}"# + "\n"

    /// Sends `payload` on its own connection and returns the first answer line.
    static func answer(to payload: [UInt8], daemon: DaemonProcess) throws -> JSONValue? {
        let socket = try RawSocket(path: daemon.socketPath)
        let writer = Thread { socket.send(payload) }
        writer.start()
        guard let line = socket.readLine() else { return nil }
        return try JSONParser(maximumDepth: 16).parse(line)
    }

    static func assertServing(_ daemon: DaemonProcess) throws {
        let other = try RawSocket(path: daemon.socketPath)
        other.send(ping)
        #expect(other.readLine() == #"{"id":"probe","jsonrpc":"2.0","result":"pong"}"#)
    }

    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let payload: [UInt8]
        /// The error code expected; 0 when the line is valid and answered.
        let code: Int
    }

    static let malformed: [Case] = {
        let utf8: (String) -> [UInt8] = { Array($0.utf8) }
        var cases: [Case] = []
        cases.append(
            Case(description: "truncated JSON", payload: utf8(#"{"jsonrpc":"2.0","method":"system.pi"#), code: -32700))
        cases.append(
            Case(description: "100,000 nested [", payload: [UInt8](repeating: 91, count: 100_000), code: -32700))
        cases.append(
            Case(
                description: "a huge number id",
                payload: utf8(#"{"jsonrpc":"2.0","method":"system.ping","id":1e999999}"#), code: 0))
        cases.append(
            Case(
                description: "duplicate keys",
                payload: utf8(#"{"jsonrpc":"2.0","method":"system.ping","method":"x","id":1}"#), code: -32700))
        cases.append(
            Case(
                description: "lone surrogate", payload: utf8(#"{"jsonrpc":"2.0","method":"system.\ud800","id":1}"#),
                code: -32700))
        cases.append(
            Case(
                description: "invalid UTF-8",
                payload: utf8(#"{"jsonrpc":"2.0","method":""#) + [0xC3, 0x28] + utf8(#"","id":1}"#), code: -32700))
        cases.append(
            Case(
                description: "NUL byte",
                payload: utf8(#"{"jsonrpc":"2.0","method":"sys"#) + [0] + utf8(#"tem.ping","id":1}"#), code: -32700))
        cases.append(Case(description: "a number where an object must be", payload: utf8("42"), code: -32600))
        cases.append(
            Case(
                description: "an unknown method", payload: utf8(#"{"jsonrpc":"2.0","method":"x.y","id":1}"#),
                code: -32601))
        return cases
    }()

    @Test(arguments: malformed)
    func malformedLinesGetTheirError(_ test: Case) async throws {
        let (name, payload, code) = (test.description, test.payload, test.code)
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let answer = try #require(try Self.answer(to: payload + [10], daemon: daemon), "\(name)")
        if code == 0 {
            #expect(answer["result"] == "pong", "\(name): \(answer)")
            #expect(answer["id"] == .number(try #require(JSONNumber(text: "1e999999"))), "the id is echoed exactly")
        } else {
            #expect(answer["error"]?["code"] == .number(JSONNumber(code)), "\(name): \(answer)")
            #expect(answer["error"]?["data"]?["kind"] != nil)
        }
        try Self.assertServing(daemon)
    }

    @Test func hugeNumbersInParamsAreInvalidParamsNotCrashes() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "huge@example.com")
            let limit = try await connection.callError(
                "tweets.fetch", ["limit": .number(try #require(JSONNumber(text: String(repeating: "9", count: 400))))])
            #expect(limit?.code == -32602)
            let id = try await connection.callError(
                "tweets.get", ["id": .number(try #require(JSONNumber(text: "1e400")))])
            #expect(id?.code == -32602)
        }
    }

    @Test func tenMegabyteLineAndHundredThousandBatchStayBounded() async throws {
        let daemon = try await DaemonProcess(
            configuration: "[limits]\nmax_line_bytes = 16777216\n" + DaemonProcess.fastHashing)
        let before = try #require(ProcessMemory.residentKiB(daemon.processID))
        // 10 MB line of garbage inside a string: within the raised limit, so it is parsed and refused.
        let tenMegabytes =
            Array(#"{"jsonrpc":"2.0","method":"system.ping","params":{"x":""#.utf8)
            + Array(repeating: UInt8(ascii: "a"), count: 10_000_000) + Array(#""},"id":1}"#.utf8)
        let big = try #require(try Self.answer(to: tenMegabytes + [10], daemon: daemon))
        #expect(big["error"]?["code"] == -32602)
        let member = #"{"jsonrpc":"2.0","method":"system.ping","id":1}"#
        let batch = Array(("[" + Array(repeating: member, count: 100_000).joined(separator: ",") + "]\n").utf8)
        let refused = try #require(try Self.answer(to: batch, daemon: daemon))
        #expect(refused["error"]?["code"] == -32600)
        #expect(refused["error"]?["data"]?["limit"] == 1000)
        try Self.assertServing(daemon)
        let after = try #require(ProcessMemory.residentKiB(daemon.processID))
        print("memory: \(before) KiB before, \(after) KiB after a 10 MB line and a 100,000-request batch")
        #expect(after - before < 512 * 1024, "memory grew by \(after - before) KiB")
    }

    @Test func overTheDefaultLimitTenMegabytesCloseTheConnection() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let payload = Array(repeating: UInt8(ascii: "x"), count: 10_000_000)
        let answer = try #require(try Self.answer(to: payload, daemon: daemon))
        #expect(answer["error"]?["code"] == -32600)
        try Self.assertServing(daemon)
    }

    @Test func theWrongTypeForEveryParamOfEveryMethodIsInvalidParams() async throws {
        // An admin, so that admin.* reach their params too.
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "types@example.com", username: "types")
        }
        try await daemon.grantAdmin(email: "types@example.com", username: "types")
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(email: "types@example.com")
            guard case .array(let methods)? = try await connection.call("rpc.discover")["methods"] else {
                Issue.record("no methods")
                return
            }
            var checked = 0
            for method in methods {
                guard case .string(let name)? = method["name"], case .array(let params)? = method["params"] else {
                    continue
                }
                for param in params {
                    guard case .string(let paramName)? = param["name"],
                        let wrong = Self.wrongValue(for: param["schema"])
                    else {
                        continue
                    }
                    let error = try await connection.callError(name, .object([paramName: wrong]))
                    #expect(error?.code == -32602, "\(name).\(paramName) with \(wrong.serialized)")
                    #expect(
                        error?.data["fields"]?[paramName] != nil, "\(name).\(paramName): \(String(describing: error))")
                    checked += 1
                }
            }
            #expect(checked >= 30, "only \(checked) params were checked")
        }
        try Self.assertServing(daemon)
    }

    /// A value of a JSON type the schema does not allow.
    static func wrongValue(for schema: JSONValue?) -> JSONValue? {
        switch schema?["type"] {
        case "string"?: return 12345
        case "integer"?, "number"?: return "not a number"
        case "boolean"?: return "yes"
        case "object"?: return [1, 2]
        case "array"?: return "not a list"
        default: return nil
        }
    }
}
