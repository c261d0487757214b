import Testing
import TwitterCore

/// The search grammar: what it reads, and a clear problem in `fields.query` for what it cannot.
struct SearchQueryTests {
    @Test func readsWordsPhrasesAuthorsTagsAndExclusions() throws {
        let query = try SearchQuery(parsing: #"  coffee "dark roast" from:Alice #Brew -decaf -"instant coffee" ... "#)
        #expect(query.words == ["coffee"], "punctuation alone is no term")
        #expect(query.phrases == ["dark roast"])
        #expect(query.author == "Alice")
        #expect(query.tags == ["brew"], "tags are folded like hashtags")
        #expect(query.excluded == ["decaf", "instant coffee"])
        #expect(query.hasTextTerms)
        let onlyAuthor = try SearchQuery(parsing: "from:bob -spam")
        #expect(!onlyAuthor.hasTextTerms && onlyAuthor.excluded == ["spam"])
    }

    @Test(arguments: [
        (#"say "hello"#, #"has a " that is never closed"#),
        ("coffee -", #"has a "-" with nothing after it"#),
        ("from: coffee", "has from: without a valid username after it"),
        ("from:way_too_long_a_name", "has from: without a valid username after it"),
        ("from:a from:b", "has more than one from:"),
        ("-spam -eggs", "needs a word, phrase, #tag or from: besides what it leaves out"),
        ("   ", "has nothing to search for"),
        ("... !!", "has nothing to search for"),
        (#"a "..." b"#, #"has a phrase "..." with no letters or digits"#),
        ("-#tag x", "can not leave out a #tag"),
        ("#", "has #, which is not a #tag of letters and digits"),
        ("-from:a x", "can not leave out an author with -from:"),
        (#"ab"c"#, #"has a " inside ab"c; quote whole phrases"#),
        ("a\u{0}b coffee", "has a control character"),
    ])
    func refusesWhatItCannotRead(query: String, problem: String) {
        #expect(throws: TwitterError(.invalidParams, "The search query \(problem)", fields: ["query": problem])) {
            try SearchQuery(parsing: query)
        }
    }

    @Test func refusesQueriesTooLongOrWithTooManyTerms() {
        #expect(throws: TwitterError.self) { try SearchQuery(parsing: String(repeating: "a", count: 501)) }
        #expect(throws: TwitterError.self) {
            try SearchQuery(parsing: (0...SearchQuery.maximumTerms).map { "w\($0)" }.joined(separator: " "))
        }
        #expect(
            (try? SearchQuery(parsing: (1...SearchQuery.maximumTerms).map { "w\($0)" }.joined(separator: " "))) != nil)
    }
}
