import JSONRPC
import Testing

@Suite("Parser accepts valid JSON")
struct ParserAcceptTests {
    static let cases: [(String, JSONValue)] = [
        ("null", .null),
        ("true", true),
        ("false", false),
        (" \t\r\n 1 \t\r\n ", 1),
        ("0", 0),
        ("-0", .number(JSONNumber(text: "-0") ?? JSONNumber(0))),
        ("1.50", .number(JSONNumber(text: "1.50") ?? JSONNumber(0))),
        ("1e3", .number(JSONNumber(text: "1e3") ?? JSONNumber(0))),
        ("-1.5E-10", .number(JSONNumber(text: "-1.5E-10") ?? JSONNumber(0))),
        ("1e999999", .number(JSONNumber(text: "1e999999") ?? JSONNumber(0))),
        (#""""#, ""),
        (#""abc""#, "abc"),
        (#""\u00e9""#, "é"),
        (#""\u00E9""#, "é"),
        (#""\ud83d\ude00""#, "😀"),
        (#""😀 é 中""#, "😀 é 中"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""a\u0000b""#, "a\u{0}b"),
        (#""x\u0041y\n""#, "xAy\n"),
        (#""é\n😀""#, "é\n😀"),
        ("[]", []),
        ("{}", [:]),
        (" [ 1 , 2 ] ", [1, 2]),
        (#"{"a":[1,{"b":null}],"c":"d"}"#, ["a": [1, ["b": nil]], "c": "d"]),
        (#"{ "" : 1 }"#, ["": 1]),
        (#"[[[]],{}]"#, [[[]], [:]]),
    ]

    @Test(arguments: cases)
    func accepts(input: String, expected: JSONValue) throws {
        #expect(try JSONParser().parse(input) == expected)
        #expect(try JSONParser().parse(Array(input.utf8)) == expected)
    }

    @Test func hugeNumbersKeepTheirText() throws {
        let digits = "1" + String(repeating: "0", count: 399)
        let value = try JSONParser().parse("[\(digits), -\(digits).5e-999999]")
        guard case .array(let elements) = value, elements.count == 2,
            case .number(let first) = elements[0], case .number(let second) = elements[1]
        else {
            Issue.record("expected two numbers, got \(value)")
            return
        }
        #expect(first.text == digits)
        #expect(second.text == "-\(digits).5e-999999")
        #expect(first.int64 == nil)
        #expect(first.double == nil)
    }

    @Test func parsesFromRawBuffer() throws {
        let bytes: [UInt8] = Array(#"{"id":1.50}"#.utf8)
        let value = try bytes.withUnsafeBytes { try JSONParser().parse($0) }
        #expect(value["id"] == .number(JSONNumber(text: "1.50") ?? JSONNumber(0)))
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["id"] == nil)
    }

    @Test(arguments: [1, 2, 64])
    func nestingAtExactlyMaximumDepthIsAllowed(depth: Int) throws {
        let parser = JSONParser(maximumDepth: depth)
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(try parser.parse(arrays) != .null)
        #expect(try parser.parse(objects) != .null)
    }

    @Test func defaultDepthIs64() throws {
        let nested = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONParser().parse(nested) != .null)
    }

    @Test func zeroDepthStillAllowsScalars() throws {
        #expect(try JSONParser(maximumDepth: 0).parse("1") == 1)
        #expect(parseError(Array("[]".utf8), parser: JSONParser(maximumDepth: 0))?.kind == .tooDeep)
    }

    @Test(arguments: [
        #"{"a":1,"b":2}"#,
        #"{"a":{"a":1}}"#,
        #"[{"a":1},{"a":1}]"#,
    ])
    func sameKeyInDifferentObjectsIsNotADuplicate(input: String) throws {
        _ = try JSONParser().parse(input)
    }
}
