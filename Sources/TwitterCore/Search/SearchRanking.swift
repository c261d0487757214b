import Foundation

/// How search orders the tweets of one window (`SearchPosition`): Okapi BM25 over the words and phrases of
/// the query, newest first among equals. It lives in the domain so that every store ranks alike.
///
/// SQLite's own bm25() first counts, for every term, all the tweets that contain it, whatever the window:
/// 16 ms for "coffee kernel" on the 1M-tweet bench database, every query. Every tweet of a window holds every
/// term (the query is an AND), so that count would only weigh one term against another; here every term
/// weighs the same, and ranking a window of 1000 takes well under a millisecond.
public enum SearchRanking {
    /// BM25's term-frequency saturation.
    static let k1 = 1.2
    /// BM25's length normalisation.
    static let b = 0.75

    /// The ids of `candidates`, best match for `query` first, then newest (largest id) first.
    public static func ranked(_ candidates: [(id: Int64, text: String)], for query: SearchQuery) -> [Int64] {
        var tokenizer = Tokenizer()
        let terms = (query.words + query.phrases).map { tokenizer.tokens($0) }.filter { !$0.isEmpty }
        let documents = candidates.map { (id: $0.id, tokens: tokenizer.tokens($0.text)) }
        guard !documents.isEmpty else { return [] }
        let averageLength = max(1, Double(documents.reduce(0) { $0 + $1.tokens.count }) / Double(documents.count))
        let scored = documents.map { document -> (id: Int64, score: Double) in
            let length = Double(document.tokens.count)
            let score = terms.reduce(0.0) { total, term in
                let frequency = Double(occurrences(of: term, in: document.tokens))
                return total + frequency * (k1 + 1) / (frequency + k1 * (1 - b + b * length / averageLength))
            }
            return (document.id, score)
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id > $1.id }.map(\.id)
    }

    /// How often the token sequence `term` occurs in `document`.
    static func occurrences(of term: [UInt64], in document: [UInt64]) -> Int {
        guard let first = term.first, term.count <= document.count else { return 0 }
        var count = 0
        for start in 0...(document.count - term.count) where document[start] == first {
            if term.count == 1 || document[start..<(start + term.count)].elementsEqual(term) { count += 1 }
        }
        return count
    }

    /// Words as the full-text index sees them (SQLite's unicode61 with `remove_diacritics 2`): runs of letters,
    /// digits and private-use characters; case folded; a letter that decomposes into an ASCII letter and
    /// marks folded to that letter (é, å, ǖ, but not ø, ß or Greek ά: SQLite's table is Latin only); the
    /// combining accents U+0300–U+0331 dropped inside a word, any other mark ending it. Each word is kept
    /// as a 64-bit hash of its folded scalars.
    ///
    /// `SearchMatcher` finds tweets with it where the index lags, so it must split and fold exactly as the
    /// index does: `SearchIndexerTests` checks both paths on the same tweets. Splitting a window's texts into
    /// `String` words by `Character` took 21 µs a tweet (grapheme breaking); hashing scalars takes about
    /// 1.4 µs. Two words would have to collide for a tweet to match or rank wrongly.
    struct Tokenizer {
        /// The folding of each non-ASCII scalar met (empty: it separates words; `diacritic`: dropped), so
        /// Foundation decomposes each one once per tokenizer.
        private var folded: [UInt32: [UInt32]] = [:]

        mutating func tokens(_ text: String) -> [UInt64] {
            var tokens: [UInt64] = []
            var hash = Self.offsetBasis
            var inToken = false
            func add(_ value: UInt32) {
                hash = (hash ^ UInt64(value)) &* Self.prime
                inToken = true
            }
            func end() {
                guard inToken else { return }
                tokens.append(hash)
                hash = Self.offsetBasis
                inToken = false
            }
            for scalar in text.unicodeScalars {
                let value = scalar.value
                if value < 0x80 {
                    switch value {
                    case 0x30...0x39, 0x61...0x7A: add(value)
                    case 0x41...0x5A: add(value + 0x20)
                    default: end()
                    }
                } else {
                    let folding = folding(scalar)
                    if folding.isEmpty {
                        end()
                    } else if folding != Self.diacritic {
                        for folded in folding { add(folded) }
                    }
                }
            }
            end()
            return tokens
        }

        /// What a combining accent folds to: nothing, within the word.
        private static let diacritic: [UInt32] = [0]

        private mutating func folding(_ scalar: Unicode.Scalar) -> [UInt32] {
            if let known = folded[scalar.value] { return known }
            let folding = Self.fold(scalar)
            folded[scalar.value] = folding
            return folding
        }

        private static func fold(_ scalar: Unicode.Scalar) -> [UInt32] {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark:
                // The accents SQLite's unicode61 removes (sqlite3Fts5UnicodeIsdiacritic); other marks end a word.
                let removed: ClosedRange<UInt32> = 0x300...0x331
                return removed.contains(scalar.value) && isRemovedAccent(scalar.value) ? diacritic : []
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                break
            default:
                return []
            }
            let decomposed = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            if decomposed.count > 1, let base = decomposed.first, base.isASCII, base.properties.isAlphabetic {
                return [base.properties.lowercaseMapping.unicodeScalars.first?.value ?? base.value]
            }
            if scalar.value == 0x3C2 { return [0x3C3] }  // final sigma folds to sigma, as case folding has it
            let lower = Array(scalar.properties.lowercaseMapping.unicodeScalars)
            return lower.count == 1 ? [lower[0].value] : [scalar.value]
        }

        /// SQLite's mask of the combining accents in U+0300–U+0331 it removes.
        private static func isRemovedAccent(_ value: UInt32) -> Bool {
            let offset = value - 0x300
            return offset < 32
                ? (0x0802_9FDF as UInt32) & (1 << offset) != 0 : (0x0003_61F8 as UInt32) & (1 << (offset - 32)) != 0
        }

        private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
        private static let prime: UInt64 = 0x100_0000_01b3
    }
}
