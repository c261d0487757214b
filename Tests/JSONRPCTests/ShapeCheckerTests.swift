import Testing

@testable import JSONRPC

/// Params checked against a method's declared shape: every mismatch named by its field path.
struct ShapeCheckerTests {
    static let properties = [
        Property("text", .string(), required: true),
        Property("limit", .integer(minimum: 1, maximum: 200)),
        Property("filter", .object([Property("tag", .string())])),
    ]

    static func check(_ members: [String: JSONValue]) -> [String: String] {
        ShapeChecker.check(params: members, against: properties)
    }

    @Test func membersThatAreAllPropertiesPass() {
        #expect(Self.check(["text": .string("hi")]).isEmpty)
        #expect(Self.check(["text": .string("hi"), "limit": .number(JSONNumber(5)), "filter": .object([:])]).isEmpty)
    }

    @Test func everyUnknownMemberIsNamedAtItsPath() {
        let failures = Self.check([
            "text": .string("hi"), "extra": .bool(true), "other": .null,
            "filter": .object(["tag": .string("a"), "colour": .string("red")]),
        ])
        #expect(failures == ["extra": "unknown field", "other": "unknown field", "filter.colour": "unknown field"])
    }

    @Test func anUnknownMemberBesideAMissingRequiredOneIsNamedToo() {
        // As many members as properties, but not the same ones: counting alone would miss it.
        let failures = Self.check(["limit": .number(JSONNumber(5)), "filter": .null, "extra": .string("x")])
        #expect(failures == ["text": "is required", "extra": "unknown field"])
    }
}
