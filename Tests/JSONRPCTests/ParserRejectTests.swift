import JSONRPC
import Testing

@Suite("Parser rejects invalid JSON")
struct ParserRejectTests {
    static func utf8(_ text: String) -> [UInt8] {
        Array(text.utf8)
    }

    static let cases: [(String, [UInt8], JSONParseError.Kind)] = [
        ("empty", [], .empty),
        ("only whitespace", utf8(" \n\t\r "), .empty),
        ("trailing comma in array", utf8("[1,]"), .syntax),
        ("trailing comma in object", utf8(#"{"a":1,}"#), .syntax),
        ("leading comma", utf8("[,1]"), .syntax),
        ("line comment", utf8("// c\n1"), .syntax),
        ("block comment", utf8("[1 /* c */]"), .syntax),
        ("NaN", utf8("NaN"), .syntax),
        ("Infinity", utf8("Infinity"), .syntax),
        ("negative Infinity", utf8("-Infinity"), .syntax),
        ("leading zero", utf8("01"), .syntax),
        ("negative leading zero", utf8("-01"), .syntax),
        ("plus sign", utf8("+1"), .syntax),
        ("missing fraction digits", utf8("1."), .syntax),
        ("missing integer digits", utf8(".5"), .syntax),
        ("missing exponent digits", utf8("1e"), .syntax),
        ("missing signed exponent digits", utf8("1e+"), .syntax),
        ("lone minus", utf8("-"), .syntax),
        ("hex number", utf8("0x10"), .syntax),
        ("raw control character", utf8("\"a\u{1}b\""), .syntax),
        ("raw tab in string", utf8("\"\t\""), .syntax),
        ("raw newline in string", utf8("\"\n\""), .syntax),
        ("invalid escape", utf8(#""\x""#), .syntax),
        ("uppercase U escape", utf8(#""\U0041""#), .syntax),
        ("short unicode escape", utf8(#""\u12""#), .syntax),
        ("non-hex unicode escape", utf8(#""\u12G4""#), .syntax),
        ("lone high surrogate", utf8(#""\ud800""#), .syntax),
        ("lone low surrogate", utf8(#""\udc00""#), .syntax),
        ("high surrogate then BMP escape", utf8(#""\ud800\u0041""#), .syntax),
        ("high surrogate twice", utf8(#""\ud800\ud800""#), .syntax),
        ("high surrogate then text", utf8(#""\ud800x""#), .syntax),
        ("overlong two-byte", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8),
        ("overlong C1 lead", [0x22, 0xC1, 0xBF, 0x22], .invalidUTF8),
        ("overlong three-byte", [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8),
        ("overlong four-byte", [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8),
        ("UTF-8 encoded high surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),
        ("UTF-8 encoded low surrogate", [0x22, 0xED, 0xBF, 0xBF, 0x22], .invalidUTF8),
        ("above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),
        ("F5 lead byte", [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8),
        ("truncated three-byte", [0x22, 0xE2, 0x82, 0x22], .invalidUTF8),
        ("truncated at end of input", [0x22, 0xC3], .invalidUTF8),
        ("stray continuation", [0x22, 0x80, 0x22], .invalidUTF8),
        ("0xFF byte", [0x22, 0xFF, 0x22], .invalidUTF8),
        ("invalid UTF-8 after escape", [0x22, 0x5C, 0x6E, 0xC0, 0x80, 0x22], .invalidUTF8),
        ("invalid UTF-8 outside string", [0x5B, 0xFF, 0x5D], .invalidUTF8),
        ("invalid UTF-8 after value", [0x31, 0x20, 0xC3], .invalidUTF8),
        ("NUL alone", [0x00], .syntax),
        ("NUL after value", [0x31, 0x00], .syntax),
        ("NUL in string", [0x22, 0x61, 0x00, 0x22], .syntax),
        ("duplicate key", utf8(#"{"id":1,"id":2}"#), .duplicateKey),
        ("nested duplicate key", utf8(#"[{"a":{"b":1,"c":2,"b":3}}]"#), .duplicateKey),
        ("duplicate key spelled with escape", utf8(#"{"a":1,"\u0061":2}"#), .duplicateKey),
        ("two values", utf8("1 2"), .syntax),
        ("garbage after object", utf8("{} x"), .syntax),
        ("extra closing bracket", utf8("[1]]"), .syntax),
        ("unterminated array", utf8("[1"), .syntax),
        ("unterminated array after comma", utf8("[1,"), .syntax),
        ("unterminated object key", utf8(#"{"a""#), .syntax),
        ("unterminated object value", utf8(#"{"a":"#), .syntax),
        ("unterminated string", utf8(#""abc"#), .syntax),
        ("unterminated escape", utf8(#""\"#), .syntax),
        ("truncated true", utf8("tru"), .syntax),
        ("misspelled null", utf8("nul1"), .syntax),
        ("capitalised True", utf8("True"), .syntax),
        ("unquoted key", utf8("{a:1}"), .syntax),
        ("single-quoted string", utf8("['a']"), .syntax),
        ("missing colon", utf8(#"{"a" 1}"#), .syntax),
        ("semicolon separator", utf8("[1;2]"), .syntax),
        ("mismatched brackets", utf8("[1}"), .syntax),
        ("non-ASCII outside string", utf8("[é]"), .syntax),
        ("nesting too deep", utf8(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)), .tooDeep),
        (
            "objects too deep", utf8(String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)),
            .tooDeep
        ),
    ]

    @Test(arguments: cases)
    func rejects(name: String, bytes: [UInt8], kind: JSONParseError.Kind) {
        let error = parseError(bytes)
        #expect(error?.kind == kind, "\(name): \(String(describing: error))")
    }

    static let messages: [([UInt8], String, Int)] = [
        (utf8("[x]"), "unexpected character 'x' at byte 1", 1),
        ([0x22, 0x61, 0xFF, 0x22], "invalid UTF-8 at byte 2", 2),
        (utf8(#"["\ud800"]"#), #"lone surrogate \ud800 at byte 2"#, 2),
        (utf8(#"{"id":1,"id":2}"#), #"duplicate key "id" at byte 8"#, 8),
        (utf8(#"{"a\nb":1,"a\nb":2}"#), #"duplicate key "a\nb" at byte 10"#, 10),
        (utf8(String(repeating: "[", count: 65)), "nesting deeper than 64 levels at byte 64", 64),
        (utf8("[1"), "unexpected end of input", 2),
        ([], "empty input", 0),
        (utf8("01"), "leading zeros are not allowed at byte 0", 0),
        (utf8("1."), "expected a digit after '.' at byte 2", 2),
        (utf8("\"\u{1}\""), "unescaped control character U+0001 in string at byte 1", 1),
        (utf8(#""\q""#), #"invalid escape sequence '\q' at byte 1"#, 1),
        (utf8("1 x"), "unexpected character 'x' after the JSON value at byte 2", 2),
        (utf8("[1 2]"), "unexpected character '2', expected ',' or ']' at byte 3", 3),
    ]

    @Test(arguments: messages)
    func messagesAreReadable(bytes: [UInt8], message: String, offset: Int) {
        let error = parseError(bytes)
        #expect(error?.message == message)
        #expect(error?.description == message)
        #expect(error?.offset == offset)
    }

    @Test func duplicateKeyMessagesAreBounded() {
        let key = String(repeating: "k", count: 10_000)
        let error = parseError(Array(#"{"\#(key)":1,"\#(key)":2}"#.utf8))
        #expect(error?.kind == .duplicateKey)
        #expect((error?.message.utf8.count ?? .max) < 120)
    }

    @Test(arguments: [2, 3, 10])
    func nestingOneBeyondMaximumDepthIsRejected(depth: Int) {
        let parser = JSONParser(maximumDepth: depth)
        let arrays = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        let mixed = String(repeating: #"[{"a":"#, count: (depth + 1) / 2 + 1) + "1"
        #expect(parseError(Array(arrays.utf8), parser: parser)?.kind == .tooDeep)
        #expect(parseError(Array(mixed.utf8), parser: parser)?.kind == .tooDeep)
    }

    @Test func hundredThousandOpenBracketsFailFast() {
        let input = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let clock = ContinuousClock()
        var error: JSONParseError?
        let elapsed = clock.measure {
            error = parseError(input)
        }
        #expect(error?.kind == .tooDeep)
        #expect(error?.offset == 64)
        #expect(elapsed < .seconds(1))
    }

    @Test func deepInputDoesNotUseTheNativeStackEvenWithAHugeLimit() {
        // The parser keeps open containers on the heap, so only the limit bounds the depth.
        let input = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = parseError(input, parser: JSONParser(maximumDepth: 1_000_000))
        #expect(error?.message == "unexpected end of input")
    }
}
