import Testing
import TwitterCore

/// Every combinator of the validator library, as tables of value → expected failures.
struct ValidatorTests {
    static func messages<Value>(_ validator: Validator<Value>, _ value: Value) -> [String] {
        validator.failures(for: value).map(\.description)
    }

    @Test(arguments: [
        ("", ["empty"]), ("a", []),
    ])
    func notEmpty(value: String, expected: [String]) {
        #expect(Self.messages(.notEmpty("empty"), value) == expected)
    }

    @Test(arguments: [
        ("a", ["short"]), ("ab", []), ("abcd", []), ("abcde", ["long"]),
        ("👍🏽", ["short"]), ("e\u{301}e\u{301}", []),
        // Each character may weigh 4 bytes on average: one family emoji is one cluster but 18 bytes, and one letter
        // with 200,000 accents is one cluster of 400 KB.
        ("👨‍👩‍👧", ["long (at most 16 bytes of UTF-8)"]),
        ("a" + String(repeating: "\u{301}", count: 200_000), ["long (at most 16 bytes of UTF-8)"]),
    ])
    func lengthCountsGraphemeClustersAndWeighsBytes(value: String, expected: [String]) {
        #expect(Self.messages(.length(2...4, tooShort: "short", tooLong: "long"), value) == expected)
    }

    @Test(arguments: [
        ("abc_123", []), ("", ["pattern"]), ("has space", ["pattern"]), ("sixteen_chars_xx", ["pattern"]),
        ("fifteen_chars_x", []), ("ünicode", ["pattern"]),
    ])
    func regularExpressionMatchesTheWholeString(value: String, expected: [String]) {
        #expect(Self.messages(.matches(AccountRules.usernamePattern, "pattern"), value) == expected)
    }

    @Test(arguments: [
        ("a@example.com", true), ("first.last+tag@sub.example.org", true), ("élodie@exemple.fr", true),
        ("plain", false), ("@example.com", false), ("a@", false), ("a@localhost", false), ("a b@example.com", false),
        ("a@@example.com", false), ("a@example..com", false), ("a@-example.com", false), (".a@example.com", false),
    ])
    func email(value: String, valid: Bool) {
        #expect(Validator<String>.email("bad").accepts(value) == valid)
    }

    @Test(arguments: [(12, false), (13, true), (124, true), (125, false)])
    func range(value: Int, valid: Bool) {
        #expect(Validator<Int>.range(13...124, "range").accepts(value) == valid)
    }

    @Test(arguments: [(1.0, true), (1.5, false), (-3.0, true), (Double.infinity, false), (Double.nan, false)])
    func integral(value: Double, valid: Bool) {
        #expect(Validator<Double>.integral("integral").accepts(value) == valid)
    }

    @Test func optionals() {
        let required = Validator<String?>.required("missing", .notEmpty("empty"))
        #expect(Self.messages(required, nil) == ["missing"])
        #expect(Self.messages(required, "") == ["empty"])
        #expect(Self.messages(required, "x") == [])
        let optional = Validator<String?>.ifPresent(.notEmpty("empty"))
        #expect(Self.messages(optional, nil) == [])
        #expect(Self.messages(optional, "") == ["empty"])
    }

    @Test func collections() {
        #expect(Self.messages(Validator<[Int]>.count(1...2, "count"), []) == ["count"])
        #expect(Self.messages(Validator<[Int]>.count(1...2, "count"), [1, 2, 3]) == ["count"])
        let each = Validator<[Int]>.each(.range(0...9, "digit"))
        #expect(Self.messages(each, [1, 20, 3, -1]) == ["[1]: digit", "[3]: digit"])
    }

    @Test func dictionaries() {
        let keys = Validator<[String: Int]>.keys(.minimumLength(2, "key too short"))
        #expect(Self.messages(keys, ["a": 1, "bb": 2]) == ["a: key too short"])
        let values = Validator<[String: Int]>.values(.range(0...9, "digit"))
        #expect(Self.messages(values, ["x": 10]) == ["x: digit"])
        let entry = Validator<[String: Int]>.entry(
            "port", .required("port is required", .range(1...65535, "port range")))
        #expect(Self.messages(entry, [:]) == ["port: port is required"])
        #expect(Self.messages(entry, ["port": 0]) == ["port: port range"])
        #expect(Self.messages(entry, ["port": 80]) == [])
    }

    @Test func compoundRules() {
        let short = Validator<String>.minimumLength(3, "short")
        let digits = Validator<String>.matches("^[0-9]+$", "digits")
        #expect(Self.messages(short.and(digits), "ab") == ["short"], "and stops at the first failing rule")
        #expect(Self.messages(short.and(digits), "abc") == ["digits"])
        #expect(Self.messages(short.or(digits), "12") == [])
        #expect(Self.messages(short.or(digits), "ab") == ["short"])
        #expect(Self.messages(digits.not("must not be a number"), "123") == ["must not be a number"])
        #expect(Self.messages(digits.not("must not be a number"), "abc") == [])
        let closure = Validator<Int> { $0.isMultiple(of: 2) ? [] : [ValidationFailure("odd")] }
        #expect(Self.messages(closure, 3) == ["odd"])
        #expect(Self.messages(Validator<Int>.rule("odd") { $0.isMultiple(of: 2) }, 4) == [])
    }

    struct Person {
        var name: String
        var age: Int
        var tags: [String]
    }

    @Test func keyPathRulesNameTheirFieldAndAllReportsEveryField() {
        let person = Validator<Person>.all([
            .field(\.name, "name", .notEmpty("Name can not be empty")),
            .field(\.age, "age", .range(0...150, "Age is out of range")),
            .field(\.tags, "tags", .each(.notEmpty("Tag can not be empty"))),
        ])
        let failures = person.failures(for: Person(name: "", age: 200, tags: ["ok", ""]))
        #expect(
            failures == [
                ValidationFailure(field: "name", "Name can not be empty"),
                ValidationFailure(field: "age", "Age is out of range"),
                ValidationFailure(field: "tags[1]", "Tag can not be empty"),
            ])
        do {
            try person.validate(Person(name: "", age: 200, tags: []))
            Issue.record("an invalid value passed")
        } catch {
            #expect(error.kind == .invalidParams)
            #expect(error.fields == ["name": "Name can not be empty", "age": "Age is out of range"])
        }
    }
}
