import Foundation
import Testing

@testable import JSONRPC

/// The envelope scanner reads the common request line without a JSON tree. It must read exactly what the full
/// parser and `RPCRequest.validate` read, and give up on everything else: checked here against the full path
/// on hand-made lines and on every input of the fuzzing corpus.
struct EnvelopeScannerTests {
    static let deepParams = #"{"jsonrpc":"2.0","method":"m","params":[[[[[[[[[[]]]]]]]]]]}"#
    static let lines: [String] = [
        #"{"jsonrpc":"2.0","method":"system.ping","id":1}"#,
        #" { "id" : "a\"b" , "method" : "x" , "jsonrpc" : "2.0" } "#,
        #"{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":20},"id":-0.5e+3}"#,
        #"{"jsonrpc":"2.0","method":"m","params":[1,{"a":[]}]}"#,
        #"{"jsonrpc":"2.0","method":"caf\u00e9","id":"\ud83d\ude00"}"#,
        #"{"jsonrpc":"2.0","method":"m","id":null}"#,
        #"{"jsonrpc":"2.0","method":"m","id":1,"extra":true}"#,
        #"{"jsonrpc":"2.0","method":"m","id":1,"id":2}"#,
        #"{"jsonrpc":"2.0","method":"m","\u0069d":1}"#,
        #"{"jsonrpc":"1.0","method":"m","id":1}"#,
        #"{"jsonrpc":"2.00","method":"m","id":1}"#,
        #"{"jsonrpc":"2.0","method":"m","idx":1}"#, #"{"jsonrpc":"2.0","methods":"m","id":1}"#,
        #"{"jsonrpc":"2.0","method":"m","i":1}"#, #"{"jsonrpc":"2.0","method":"m","i"#,
        #"{"jsonrpc":"\u0032.0","method":"m","id":1}"#,
        #"{"jsonrpc":2.0,"method":"m","id":1}"#,
        #"{"jsonrpc":"2.0"#, #"{"jsonrpc":"2."#,
        #"{"jsonrpc":"2.0","method":7,"id":1}"#,
        #"{"jsonrpc":"2.0","method":"m","params":3,"id":1}"#,
        #"{"jsonrpc":"2.0","method":"m","id":01}"#,
        #"{"jsonrpc":"2.0","method":"m","id":1} x"#,
        #"{"jsonrpc":"2.0","method":"m","id":1,}"#,
        #"{"jsonrpc":"2.0","method":"m","params":{"a":1,"a":2}}"#,
        deepParams,
        #"[{"jsonrpc":"2.0","method":"m","id":1}]"#,
        #"{}"#, "", "   ", "{", #"{"jsonrpc""#, "\u{1}",
    ]

    /// The full path's reading: the request when the line is one valid request, else nil.
    static func fullRead(_ bytes: [UInt8], maximumDepth: Int) -> RPCRequest? {
        guard let value = try? JSONParser(maximumDepth: maximumDepth).parse(bytes) else { return nil }
        if case .array = value { return nil }
        return try? RPCRequest.validate(value).get()
    }

    static func scan(_ bytes: [UInt8], maximumDepth: Int) -> RPCRequest? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, maximumDepth: maximumDepth)
            return scanner.scanEnvelope()
        }
    }

    static func same(_ left: RPCRequest, _ right: RPCRequest) -> Bool {
        left.id == right.id && left.method == right.method && left.params == right.params
    }

    static func check(_ bytes: [UInt8], maximumDepth: Int) {
        guard let scanned = scan(bytes, maximumDepth: maximumDepth) else { return }
        let full = fullRead(bytes, maximumDepth: maximumDepth)
        #expect(full.map { same($0, scanned) } == true, "\(String(decoding: bytes, as: UTF8.self))")
    }

    @Test(arguments: lines)
    func readsWhatTheFullPathReads(line: String) {
        for depth in [0, 1, 2, 5, 64] { Self.check(Array(line.utf8), maximumDepth: depth) }
    }

    @Test func theUsualRequestTakesTheFastPath() throws {
        let request = try #require(Self.scan(Array(Self.lines[0].utf8), maximumDepth: 64))
        #expect(request.method == "system.ping")
        #expect(request.id == .number(JSONNumber(1)))
        #expect(Self.scan(Array(Self.lines[2].utf8), maximumDepth: 64)?.params == .object(["limit": 20]))
    }

    @Test func everythingUnusualTakesTheFullPath() {
        for line in Self.lines[5...] where line != Self.deepParams {
            #expect(Self.scan(Array(line.utf8), maximumDepth: 64) == nil, "\(line)")
        }
        // Deep params are read within the limit, and left to the full path (to report) beyond it.
        #expect(Self.scan(Array(Self.deepParams.utf8), maximumDepth: 64) != nil)
        #expect(Self.scan(Array(Self.deepParams.utf8), maximumDepth: 5) == nil)
    }

    @Test func corpusReadsTheSameBothWays() throws {
        for file in FuzzCorpusReplayTests.corpus {
            let bytes = Array(try Data(contentsOf: file))
            for depth in [1, 3, 64] { Self.check(bytes, maximumDepth: depth) }
        }
    }
}
