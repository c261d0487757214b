/// Whether a text matches a query the way the store's full-text index would match it: every word and phrase
/// present (as a run of tokens), no excluded one present, words folded as `SearchRanking.Tokenizer` folds
/// them (the index's unicode61 with diacritics removed).
///
/// A store that indexes after the commit rather than in it matches its not-yet-indexed tweets with this, so a
/// tweet is found the moment its post is answered. Tokens are 64-bit hashes of the folded words; two words
/// would have to collide for a text to match wrongly.
public struct SearchMatcher: Sendable {
    private var tokenizer = SearchRanking.Tokenizer()
    private let required: [[UInt64]]
    private let excluded: [[UInt64]]

    /// A matcher for `query`'s words, phrases and exclusions; its author and tags are the store's to check.
    public init(_ query: SearchQuery) {
        var tokenizer = SearchRanking.Tokenizer()
        required = (query.words + query.phrases).map { tokenizer.tokens($0) }.filter { !$0.isEmpty }
        excluded = query.excluded.map { tokenizer.tokens($0) }.filter { !$0.isEmpty }
        self.tokenizer = tokenizer
    }

    /// Whether `text` holds every required term and none of the excluded ones.
    public mutating func matches(_ text: String) -> Bool {
        let tokens = tokenizer.tokens(text)
        return required.allSatisfy { Self.contains($0, in: tokens) }
            && !excluded.contains { Self.contains($0, in: tokens) }
    }

    /// Whether `text` holds one of the excluded terms.
    public mutating func isExcluded(_ text: String) -> Bool {
        guard !excluded.isEmpty else { return false }
        let tokens = tokenizer.tokens(text)
        return excluded.contains { Self.contains($0, in: tokens) }
    }

    private static func contains(_ term: [UInt64], in tokens: [UInt64]) -> Bool {
        SearchRanking.occurrences(of: term, in: tokens) > 0
    }
}
