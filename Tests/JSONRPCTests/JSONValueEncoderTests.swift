import Foundation
import JSONRPC
import Testing

/// The direct encoding of typed params into a JSON value (`JSONValueEncoder`, the fast path of another
/// transport's calls) against the slow path it replaced: Foundation's encoder as every answer uses it
/// (`ResultEncoder`), then the parser.
@Suite struct JSONValueEncoderTests {
    enum Kind: String, Codable { case tweet, reply }

    struct Inner: Codable {
        var id: Int64
        var tags: [String]
        var note: String?
    }

    struct Params: Codable {
        var text: String
        var limit: Int?
        var sinceId: Int64?
        var flag: Bool
        var ratio: Double
        var small: Int8
        var unsigned: UInt32
        var at: Date
        var kind: Kind
        var inner: Inner
        var inners: [Inner]
        var counts: [String: Int]
        var nested: [[Int]]
        var credentials: JSONValue
        var missing: Inner?
    }

    /// Encodes with a keyed container of its own, null included, and a nested unkeyed one.
    struct Custom: Encodable {
        enum Keys: String, CodingKey { case a, b, list }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeNil(forKey: .a)
            try container.encode("β \"quoted\" \\ /", forKey: .b)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try list.encodeNil()
            try list.encode(2.5)
        }
    }

    struct Empty: Codable {}

    static func slow(_ value: some Encodable) throws -> JSONValue {
        try JSONParser().parse(try ResultEncoder.encode(value))
    }

    @Test func typedParamsEncodeAsTheEncoderAndParserMakeThem() throws {
        let params = Params(
            text: "hello \u{1F600} <p>", limit: 20, sinceId: nil, flag: true, ratio: 0.25, small: -3,
            unsigned: 4_000_000_000, at: Date(timeIntervalSince1970: 1_764_300_000.125), kind: .reply,
            inner: Inner(id: 9_007_199_254_740_993, tags: ["a", "b"], note: nil),
            inners: [Inner(id: 1, tags: [], note: "n")], counts: ["x": 1, "y": -2], nested: [[1, 2], []],
            credentials: .object(["token": .string("tws_x"), "n": .number(JSONNumber(3))]), missing: nil)
        #expect(try JSONValueEncoder.encode(params) == Self.slow(params))
        #expect(try JSONValueEncoder.encode(Custom()) == Self.slow(Custom()))
        #expect(try JSONValueEncoder.encode(Empty()) == Self.slow(Empty()))
        #expect(try JSONValueEncoder.encode([Kind.tweet]) == Self.slow([Kind.tweet]))
        #expect(try JSONValueEncoder.encode("text") == Self.slow("text"))
    }

    @Test func aNumberWithoutJSONIsRefusedAsByTheEncoder() {
        struct Bad: Encodable { var value: Double }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(Bad(value: .nan)) }
        #expect(throws: (any Error).self) { try ResultEncoder.encode(Bad(value: .infinity)) }
    }
}
