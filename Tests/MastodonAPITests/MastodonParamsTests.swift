import MastodonAPI
import Testing

/// Params as Mastodon's clients send them: forms say "1" and "0", JSON says true and false.
struct MastodonParamsTests {
    @Test func booleansInEveryClientsSpelling() throws {
        let params = MastodonParams(["a": ["1"], "b": ["0"], "c": ["true"], "d": ["false"], "e": [""]])
        #expect(try params.bool("a") == true)
        #expect(try params.bool("b") == false)
        #expect(try params.bool("c") == true)
        #expect(try params.bool("d") == false)
        #expect(try params.bool("e") == nil)
        #expect(try params.bool("missing") == nil)
        #expect(throws: MastodonError.self) { try MastodonParams(["a": ["maybe"]]).bool("a") }
    }

    @Test func wholeNumbersOrA422() throws {
        #expect(try MastodonParams(["limit": ["20"]]).int("limit") == 20)
        #expect(throws: MastodonError.unprocessable("limit must be a whole number")) {
            try MastodonParams(["limit": ["x"]]).int("limit")
        }
    }
}
