import Foundation
import JSONRPC
import Testing

@Suite("Writer")
struct WriterTests {
    @Test(arguments: [
        "null",
        "[true,false,null]",
        #"{"id":1.50,"method":"x","params":[1e3,-0,"\u00e9\ud83d\ude00"]}"#,
        #"  { "b" : [ {}, [] ], "a" : "\" \\ \/ \b \f \n \r \t \u0001" }  "#,
        "[" + String(repeating: "9", count: 400) + ",1e999999]",
        #"{"é":{"😀":[[[["deep"]]]]}}"#,
    ])
    func roundTrips(input: String) throws {
        let parsed = try JSONParser().parse(input)
        let written = parsed.serialized
        #expect(try JSONParser().parse(written) == parsed)
        var bytes: [UInt8] = []
        parsed.write(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == written)
        // Writing is canonical: a second round leaves the text unchanged.
        #expect(try JSONParser().parse(written).serialized == written)
    }

    @Test(arguments: [
        ("[1.50,1e3,-0,1E+2]", "[1.50,1e3,-0,1E+2]"),
        (#" { "b" : 1 , "a" : [ ] } "#, #"{"a":[],"b":1}"#),
        (#"{"b":1,"a":2,"B":3,"é":4,"_":5,"aa":6}"#, #"{"B":3,"_":5,"a":2,"aa":6,"b":1,"é":4}"#),
        (#""\/""#, #""/""#),
        (#""\u00e9""#, #""é""#),
    ])
    func writesCompactSortedOutput(input: String, expected: String) throws {
        #expect(try JSONParser().parse(input).serialized == expected)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("a\"b", #""a\"b""#),
        ("back\\slash", #""back\\slash""#),
        ("/", #""/""#),
        ("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{0}", #""\u0000""#),
        ("\u{1F}", #""\u001f""#),
        ("\u{1B}", #""\u001b""#),
        ("\u{7F}", "\"\u{7F}\""),
        ("é", "\"é\""),
        ("😀", "\"😀\""),
        ("\u{2028}", "\"\u{2028}\""),
        // Escapes first, last, side by side and between runs, in a string too long to be stored inline.
        (
            "\"a long run of plain text\\\n\u{1}then more plain text\t",
            #""\"a long run of plain text\\\n\u0001then more plain text\t""#
        ),
        ("", #""""#),
    ])
    func escapesStrings(input: String, expected: String) {
        var bytes: [UInt8] = []
        JSONValue.writeString(input, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(JSONValue.string(input).serialized == expected)
    }

    @Test func keyOrderMatchesJSONEncoderSortedKeys() throws {
        let keys = [
            "b", "B", "a", "A", "é", "z", "Z", "ä", "_", "aa", "a1", "a10", "a9", "10", "9", "~", "Ω", "😀", "Ä",
        ]
        var dictionary: [String: Int] = [:]
        for (position, key) in keys.enumerated() {
            dictionary[key] = position
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let expected = String(decoding: try encoder.encode(dictionary), as: UTF8.self)
        let value = JSONValue.object(dictionary.mapValues { .number(JSONNumber($0)) })
        #expect(value.serialized == expected)
    }

    @Test func literalsBuildValues() {
        let value: JSONValue = ["b": [true, nil, 1.5, "x", 2], "a": 1, "c": [:], "d": []]
        #expect(value.serialized == #"{"a":1,"b":[true,null,1.5,"x",2],"c":{},"d":[]}"#)
        let repeated: JSONValue = ["k": 1, "k": 2]
        #expect(repeated.serialized == #"{"k":2}"#)
    }

    @Test func appendsToExistingBytes() {
        var bytes = Array("x=".utf8)
        JSONValue.array([1, "a"]).write(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"x=[1,"a"]"#)
    }
}
