import JSONRPC
import Testing

@Suite("JSONNumber")
struct JSONNumberTests {
    static let accessorCases: [(String, Int64?, Bool, Double?)] = [
        ("0", 0, true, 0),
        ("-0", 0, true, -0.0),
        ("42", 42, true, 42),
        ("-42", -42, true, -42),
        ("9223372036854775807", Int64.max, true, 9.223_372_036_854_775_808e18),
        ("9223372036854775808", nil, true, 9.223_372_036_854_775_808e18),
        ("-9223372036854775808", Int64.min, true, -9.223_372_036_854_775_808e18),
        ("-9223372036854775809", nil, true, -9.223_372_036_854_775_808e18),
        ("1e3", 1000, true, 1000),
        ("1E+3", 1000, true, 1000),
        ("1.0", 1, true, 1),
        ("10e-1", 1, true, 1),
        ("0.000", 0, true, 0),
        ("0e999999", 0, true, 0),
        ("1.5", nil, false, 1.5),
        ("1.50", nil, false, 1.5),
        ("123e-2", nil, false, 1.23),
        ("-1e-5", nil, false, -0.00001),
        ("9.223372036854775807e18", Int64.max, true, 9.223372036854775807e18),
        ("1e19", nil, true, 1e19),
        ("1e999999", nil, true, nil),
        ("-1e999999", nil, true, nil),
        ("1e-999999", nil, false, 0),
        ("1" + String(repeating: "0", count: 399), nil, true, nil),
        ("1e99999999999999999999999999", nil, true, nil),
    ]

    @Test(arguments: accessorCases)
    func accessors(text: String, int64: Int64?, isIntegral: Bool, double: Double?) throws {
        let number = try #require(JSONNumber(text: text))
        #expect(number.text == text)
        #expect(number.int64 == int64)
        #expect(number.int == int64.map { Int($0) })
        #expect(number.isIntegral == isIntegral)
        #expect(number.double == double)
    }

    @Test(arguments: [
        ("0", true), ("-0", true), ("1.5e+10", true), ("1E-0", true), ("0.0", true), ("-12.34e56", true),
        ("", false), ("-", false), ("01", false), ("+1", false), ("1.", false), (".5", false), ("1e", false),
        ("1e+", false), ("NaN", false), ("Infinity", false), ("0x1", false), (" 1", false), ("1 ", false),
        ("1_000", false), ("١", false), ("--1", false), ("1.2.3", false), ("1e2e3", false),
    ])
    func validatesText(text: String, valid: Bool) {
        #expect((JSONNumber(text: text) != nil) == valid)
    }

    @Test(arguments: [
        (1.0, "1"), (-0.0, "-0"), (0.1, "0.1"), (1.5, "1.5"), (1e16, "1e+16"), (1e-5, "1e-05"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"), (Double.leastNonzeroMagnitude, "5e-324"),
    ])
    func doubleInitUsesShortestRoundTripText(value: Double, text: String) throws {
        let number = try #require(JSONNumber(value))
        #expect(number.text == text)
        #expect(number.double == value)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
    func doubleInitRejectsNonFinite(value: Double) {
        #expect(JSONNumber(value) == nil)
    }

    @Test(arguments: [0, -42, Int.max, Int.min])
    func intInitRoundTrips(value: Int) {
        let number = JSONNumber(value)
        #expect(number.text == String(value))
        #expect(number.int == value)
        #expect(JSONNumber(text: number.text) == number)
    }
}
