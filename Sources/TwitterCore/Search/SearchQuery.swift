/// A search as people type it: words that must all match (case and diacritics ignored), `"a phrase"`,
/// `from:username`, `#tag`, and `-word` or `-"a phrase"` to leave out. Parsed here, once, so a query the
/// grammar cannot read is a clear -32602 naming the problem and never reaches the database.
public struct SearchQuery: Sendable, Equatable {
    /// Words that must all appear.
    public var words: [String] = []
    /// Phrases that must appear as written (words in this order).
    public var phrases: [String] = []
    /// Words or phrases that must not appear.
    public var excluded: [String] = []
    /// `from:` — only this account's tweets.
    public var author: String?
    /// Tags (as `EntityScanner.tagKey` folds them) the tweet must carry.
    public var tags: [String] = []

    /// The longest query read, in characters.
    public static let maximumLength = 500
    /// The most terms one query may have.
    public static let maximumTerms = 32

    /// Parses `text`; `.invalidParams` with the problem in `fields.query` when it cannot be read.
    public init(parsing text: String) throws(TwitterError) {
        guard text.count <= Self.maximumLength else {
            throw Self.problem("is \(text.count) characters; the limit is \(Self.maximumLength)")
        }
        // SQLite reads a MATCH string up to its first NUL; no control character belongs in a query anyway.
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Self.problem("has a control character")
        }
        var rest = Substring(text)
        var terms = 0
        while let token = try Self.nextToken(&rest) {
            terms += 1
            guard terms <= Self.maximumTerms else { throw Self.problem("has more than \(Self.maximumTerms) terms") }
            try add(token)
        }
        guard !words.isEmpty || !phrases.isEmpty || !tags.isEmpty || author != nil else {
            throw Self.problem(
                excluded.isEmpty
                    ? "has nothing to search for" : "needs a word, phrase, #tag or from: besides what it leaves out")
        }
    }

    /// Whether the text index must match something (as opposed to only tags and an author).
    public var hasTextTerms: Bool { !words.isEmpty || !phrases.isEmpty }

    private enum Token {
        case word(String, negated: Bool)
        case phrase(String, negated: Bool)
    }

    private mutating func add(_ token: Token) throws(TwitterError) {
        switch token {
        case .phrase(let phrase, let negated):
            guard Self.hasSearchableCharacter(phrase) else {
                throw Self.problem("has a phrase \"\(phrase)\" with no letters or digits")
            }
            if negated { excluded.append(phrase) } else { phrases.append(phrase) }
        case .word(let word, let negated):
            if word.lowercased().hasPrefix("from:") {
                let name = String(word.dropFirst(5))
                guard !negated else { throw Self.problem("can not leave out an author with -from:") }
                guard name.wholeMatch(of: /[A-Za-z0-9_]{1,15}/) != nil else {
                    throw Self.problem("has from: without a valid username after it")
                }
                guard author == nil || author?.lowercased() == name.lowercased() else {
                    throw Self.problem("has more than one from:")
                }
                author = name
            } else if let sign = word.unicodeScalars.first, sign == "#" || sign == "\u{FF03}" {
                let found = EntityScanner.scan(word).hashtags
                guard !negated, found.count == 1, found[0].start == 0, found[0].end == word.unicodeScalars.count
                else {
                    throw Self.problem(
                        negated ? "can not leave out a #tag" : "has \(word), which is not a #tag of letters and digits")
                }
                tags.append(EntityScanner.tagKey(found[0].tag))
            } else if Self.hasSearchableCharacter(word) {
                if negated { excluded.append(word) } else { words.append(word) }
            } else if negated {
                throw Self.problem("has \"-\(word)\", which leaves out no word")
            }
        // Punctuation on its own is no term; a query of nothing else is refused above.
        }
    }

    /// The next term, or nil at the end.
    private static func nextToken(_ rest: inout Substring) throws(TwitterError) -> Token? {
        rest = rest.drop(while: \.isWhitespace)
        guard let first = rest.first else { return nil }
        var negated = false
        if first == "-" {
            negated = true
            rest = rest.dropFirst()
            guard let next = rest.first, !next.isWhitespace else { throw problem("has a \"-\" with nothing after it") }
        }
        if rest.first == "\"" {
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: "\"") else { throw problem("has a \" that is never closed") }
            let phrase = String(rest[..<close])
            rest = rest[rest.index(after: close)...]
            return .phrase(phrase, negated: negated)
        }
        let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
        let word = String(rest[..<end])
        rest = rest[end...]
        guard !word.contains("\"") else { throw problem("has a \" inside \(word); quote whole phrases") }
        return .word(word, negated: negated)
    }

    private static func hasSearchableCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    private static func problem(_ message: String) -> TwitterError {
        TwitterError(.invalidParams, "The search query \(message)", fields: ["query": message])
    }
}
