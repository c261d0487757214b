import Testing

@testable import TwitterCore

/// What a store matches by itself where its index lags: every word and phrase, no exclusion, folded alike.
struct SearchMatcherTests {
    @Test func everyWordAndPhraseMustBeThereAndNoExcludedOne() throws {
        var matcher = SearchMatcher(try SearchQuery(parsing: #"coffee "dark roast" -decaf -"no sugar""#))
        let cases: [(text: String, matches: Bool, why: String)] = [
            ("Dark roast COFFEE, black", true, "every word and the phrase"),
            ("coffée: dark-roast", true, "accents, case and punctuation are folded as the index folds"),
            ("roast dark coffee", false, "a phrase only in its order"),
            ("dark roast tea", false, "every word"),
            ("dark roast coffee, decaf", false, "an excluded word"),
            ("dark roast coffee with no sugar", false, "an excluded phrase"),
            ("dark roast coffee with sugar, no", true, "an excluded phrase only in its order"),
            ("coffeemaker dark roast", false, "whole words, not prefixes"),
        ]
        for (text, matches, why) in cases {
            let matched = matcher.matches(text)
            #expect(matched == matches, "\(text): \(why)")
        }
    }

    @Test func exclusionsAloneAndTheirAbsence() throws {
        var only = SearchMatcher(try SearchQuery(parsing: "from:alice -Spoilers"))
        let anything = only.matches("anything at all")
        let spoilers = only.isExcluded("big SPOILERS ahead")
        let spoil = only.isExcluded("spoil")
        #expect(anything, "no required term: everything not excluded matches")
        #expect(spoilers && !spoil)
        var none = SearchMatcher(try SearchQuery(parsing: "#tag"))
        let excluded = none.isExcluded("tag spoilers")
        let empty = none.matches("")
        #expect(!excluded && empty)
    }
}
