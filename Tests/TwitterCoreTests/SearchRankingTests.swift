import Testing

@testable import TwitterCore

/// BM25 over a window: more occurrences and shorter tweets rank higher, ties go to the newest.
struct SearchRankingTests {
    @Test func ranksByOccurrencesThenLengthThenRecency() throws {
        let query = try SearchQuery(parsing: "coffee")
        let ranked = SearchRanking.ranked(
            [
                (1, "coffee and a long tail of other words here"), (2, "COFFEE, Coffee, coffée!"),
                (3, "coffee and a long tail of other words here"), (4, "coffee now"),
            ], for: query)
        #expect(ranked == [2, 4, 3, 1], "three (folded) occurrences, then the shorter, then the newer of equals")
    }

    @Test func phrasesCountOnlyInTheirOrderAndWordsMatchAsTheIndexSplitsThem() throws {
        var tokenizer = SearchRanking.Tokenizer()
        #expect(tokenizer.tokens("Crème-brûlée, 2 CAFÉS") == tokenizer.tokens("creme brulee 2 cafes"))
        #expect(tokenizer.tokens("e\u{301}") == tokenizer.tokens("é"), "a combining accent is removed too")
        #expect(tokenizer.tokens("🚀 🎉").isEmpty, "emoji are no words")
        let phrase = tokenizer.tokens("dark roast")
        #expect(SearchRanking.occurrences(of: phrase, in: tokenizer.tokens("dark roast, dark roast")) == 2)
        #expect(SearchRanking.occurrences(of: phrase, in: tokenizer.tokens("roast dark")) == 0)
        let query = try SearchQuery(parsing: #""dark roast" coffee"#)
        #expect(SearchRanking.ranked([(1, "roast dark coffee"), (2, "dark roast coffee")], for: query) == [2, 1])
    }
}
