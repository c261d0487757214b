import Foundation
import JSONRPC
import Testing

@Suite("JSONValueDecoder")
struct DecoderTests {
    struct Inner: Decodable, Equatable {
        let count: Int
        let flag: Bool?
    }

    struct Params: Decodable, Equatable {
        let name: String
        let limit: Int?
        let tags: [String]
        let inner: Inner
        let when: Date?
        let ratio: Double
        let small: UInt8?
    }

    enum Mode: String, Decodable {
        case fast, slow
    }

    /// Exercises nested containers and super decoders from a hand-written `init(from:)`.
    struct Custom: Decodable {
        enum Keys: String, CodingKey {
            case point, list, base
        }

        enum PointKeys: String, CodingKey {
            case x, y
        }

        let x: Int
        let y: Int
        let list: [Int]
        let base: String
        let superValue: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let point = try container.nestedContainer(keyedBy: PointKeys.self, forKey: .point)
            x = try point.decode(Int.self, forKey: .x)
            y = try point.decode(Int.self, forKey: .y)
            var unkeyed = try container.nestedUnkeyedContainer(forKey: .list)
            var list: [Int] = []
            while !unkeyed.isAtEnd {
                if try unkeyed.decodeNil() {
                    continue
                }
                list.append(try unkeyed.decode(Int.self))
            }
            self.list = list
            base = try container.superDecoder(forKey: .base).singleValueContainer().decode(String.self)
            superValue = try container.superDecoder().singleValueContainer().decode(Int.self)
        }
    }

    static let valid: JSONValue = [
        "name": "n",
        "limit": 10,
        "tags": ["a", "b"],
        "inner": ["count": 3],
        "when": "2024-01-02T03:04:05Z",
        "ratio": 0.5,
        "extra": "ignored",
    ]

    static func replacing(_ key: String, with value: JSONValue?) -> JSONValue {
        guard case .object(var members) = valid else {
            return valid
        }
        members[key] = value
        return .object(members)
    }

    @Test func decodesAStruct() throws {
        let params = try JSONValueDecoder().decode(Params.self, from: Self.valid)
        let expected = Params(
            name: "n", limit: 10, tags: ["a", "b"], inner: Inner(count: 3, flag: nil),
            when: Date(timeIntervalSince1970: 1_704_164_645), ratio: 0.5, small: nil
        )
        #expect(params == expected)
    }

    @Test(arguments: [("limit", JSONValue?.none), ("limit", .null), ("when", .none), ("when", .null)])
    func optionalFieldsMayBeMissingOrNull(key: String, value: JSONValue?) throws {
        let params = try JSONValueDecoder().decode(Params.self, from: Self.replacing(key, with: value))
        #expect(params.name == "n")
    }

    static let failures: [(String, JSONValue, [String], String)] = [
        ("limit", "ten", ["limit"], "expected number, found string"),
        ("limit", 1.5, ["limit"], "expected an integer, found 1.5"),
        ("limit", .number(JSONNumber(text: "1e40") ?? JSONNumber(0)), ["limit"], "number 1e40 does not fit in Int"),
        ("small", 300, ["small"], "number 300 does not fit in UInt8"),
        ("small", -1, ["small"], "number -1 does not fit in UInt8"),
        ("name", 5, ["name"], "expected string, found number"),
        ("name", .null, ["name"], "expected string, found null"),
        ("tags", ["a", 5], ["tags", "Index 1"], "expected string, found number"),
        ("tags", "a", ["tags"], "expected array, found string"),
        ("inner", ["count": true], ["inner", "count"], "expected number, found boolean"),
        ("inner", [1], ["inner"], "expected object, found array"),
        ("when", "yesterday", ["when"], #"expected an RFC 3339 date, found "yesterday""#),
        ("when", 1_704_164_645, ["when"], "expected string, found number"),
        (
            "ratio", .number(JSONNumber(text: "1e999") ?? JSONNumber(0)), ["ratio"],
            "number 1e999 does not fit in Double"
        ),
    ]

    @Test(arguments: failures)
    func wrongValuesNameTheField(key: String, value: JSONValue, path: [String], description: String) {
        let error = decodingError(Params.self, from: Self.replacing(key, with: value))
        #expect(pathOf(error) == path)
        #expect(contextOf(error)?.debugDescription == description)
    }

    @Test func missingKeyIsKeyNotFound() {
        let error = decodingError(Params.self, from: Self.replacing("name", with: nil))
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "name")
        #expect(context.codingPath.isEmpty)
    }

    @Test func missingNestedKeyHasParentPath() {
        let error = decodingError(Params.self, from: Self.replacing("inner", with: [:]))
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "count")
        #expect(context.codingPath.map(\.stringValue) == ["inner"])
    }

    @Test func arrayIndexKeysCarryIntValues() {
        let error = decodingError([[Int]].self, from: [[1], [2, "x"]])
        #expect(pathOf(error) == ["Index 1", "Index 1"])
        #expect(contextOf(error)?.codingPath.map(\.intValue) == [1, 1])
    }

    @Test func integersAreExact() throws {
        let decoder = JSONValueDecoder()
        let number = { (text: String) in JSONValue.number(JSONNumber(text: text) ?? JSONNumber(0)) }
        #expect(try decoder.decode(Int.self, from: number("1e3")) == 1000)
        #expect(try decoder.decode(Int.self, from: number("1.0")) == 1)
        #expect(try decoder.decode(Int64.self, from: number("-9223372036854775808")) == .min)
        #expect(try decoder.decode(UInt64.self, from: number("18446744073709551615")) == .max)
        #expect(try decoder.decode(Int8.self, from: number("-128")) == -128)
        #expect(try decoder.decode(UInt.self, from: number("-0")) == 0)
        #expect(try decoder.decode(Int128.self, from: number("170141183460469231731687303715884105727")) == .max)
        let tenToThe38: UInt128 = 100_000_000_000_000_000_000_000_000_000_000_000_000
        #expect(try decoder.decode(UInt128.self, from: number("1e38")) == tenToThe38)
        #expect(try decoder.decode(Double.self, from: number("1.5")) == 1.5)
        #expect(try decoder.decode(Float.self, from: number("0.25")) == 0.25)
        #expect(decodingError(Int8.self, from: number("128")) != nil)
        #expect(decodingError(UInt64.self, from: number("18446744073709551616")) != nil)
        #expect(decodingError(Float.self, from: number("1e39")) != nil)
        #expect(decodingError(Int.self, from: number("1e999999")) != nil)
        #expect(decodingError(Int.self, from: number("1e-999999")) != nil)
    }

    static let dates: [(String, Double?)] = [
        ("2024-01-02T03:04:05Z", 1_704_164_645),
        ("2024-01-02t03:04:05z", 1_704_164_645),
        ("2024-01-02T03:04:05.250Z", 1_704_164_645.25),
        ("2024-01-02T05:04:05+02:00", 1_704_164_645),
        ("2024-01-01T23:04:05.5-04:00", 1_704_164_645.5),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2000-03-01T00:00:00Z", 951_868_800),
        ("2024-01-02", nil),
        ("2024-01-02T03:04:05", nil),
        ("2024-01-02 03:04:05Z", nil),
        ("2024-13-01T00:00:00Z", nil),
        ("2023-02-29T00:00:00Z", nil),
        ("2024-04-31T00:00:00Z", nil),
        ("2024-01-02T24:00:00Z", nil),
        ("2024-01-02T03:04:05.Z", nil),
        ("2024-01-02T03:04:05+0200", nil),
        ("2024-01-02T03:04:05Z ", nil),
        ("２０２４-01-02T03:04:05Z", nil),
        ("", nil),
    ]

    @Test(arguments: dates)
    func decodesRFC3339Dates(text: String, seconds: Double?) {
        let decoded = try? JSONValueDecoder().decode(Date.self, from: .string(text))
        #expect(decoded == seconds.map { Date(timeIntervalSince1970: $0) })
    }

    @Test func datesInsideCollections() throws {
        let dates = try JSONValueDecoder().decode([Date?].self, from: ["1970-01-01T00:00:01Z", nil])
        #expect(dates == [Date(timeIntervalSince1970: 1), nil])
    }

    @Test func decodesTopLevelValues() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode([Int].self, from: [1, 2, 3]) == [1, 2, 3])
        #expect(try decoder.decode([String: Int].self, from: ["a": 1, "b": 2]) == ["a": 1, "b": 2])
        #expect(try decoder.decode(Int?.self, from: nil) == nil)
        #expect(try decoder.decode(Bool.self, from: true))
        #expect(try decoder.decode(Mode.self, from: "slow") == .slow)
        #expect(decodingError(Mode.self, from: "medium") != nil)
        #expect(pathOf(decodingError([String: Int].self, from: ["a": "x"])) == ["a"])
    }

    @Test func nestedContainersAndSuperDecoders() throws {
        let value: JSONValue = ["point": ["x": 1, "y": 2], "list": [1, nil, 3], "base": "b", "super": 7]
        let custom = try JSONValueDecoder().decode(Custom.self, from: value)
        #expect(custom.x == 1)
        #expect(custom.y == 2)
        #expect(custom.list == [1, 3])
        #expect(custom.base == "b")
        #expect(custom.superValue == 7)
        let error = decodingError(Custom.self, from: ["point": ["x": 1, "y": "2"], "list": [], "base": "b"])
        #expect(pathOf(error) == ["point", "y"])
    }

    @Test func unkeyedContainerAtEndThrowsValueNotFound() {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        let error = decodingError(Pair.self, from: [1])
        guard case .valueNotFound(_, let context) = error else {
            Issue.record("expected valueNotFound, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.intValue) == [1])
    }

    @Test func allKeysListsRepresentableKeys() throws {
        struct KeyLister: Decodable {
            enum Keys: String, CodingKey {
                case a, b
            }

            let keys: [String]
            let hasB: Bool

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                keys = container.allKeys.map(\.stringValue)
                hasB = container.contains(.b)
            }
        }
        let lister = try JSONValueDecoder().decode(KeyLister.self, from: ["b": 1, "a": 2, "zzz": 3])
        #expect(lister.keys == ["a", "b"])
        #expect(lister.hasB)
    }

    @Test func keyedDecodeNilRequiresTheKey() throws {
        struct NilProbe: Decodable {
            enum Keys: String, CodingKey {
                case present, missing
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                guard try container.decodeNil(forKey: .present) else {
                    throw DecodingError.dataCorruptedError(forKey: .present, in: container, debugDescription: "not nil")
                }
                _ = try container.decodeNil(forKey: .missing)
            }
        }
        let error = decodingError(NilProbe.self, from: ["present": nil])
        guard case .keyNotFound(let key, _) = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "missing")
    }
}
