import Foundation

/// Finds `@mentions`, `#hashtags` and links in a tweet's text, with their offsets in Unicode scalars.
///
/// A mention or hashtag starts a word: the character before its sign is not a letter, digit, `_` or another
/// sign, so `mail@example.com` mentions nobody and `C#` is no tag. Nothing is found inside a link.
public enum EntityScanner {
    /// Every `@name` that could be an account (the username rule: 1 to 15 ASCII letters, digits or `_`),
    /// hashtags and links. Which names are accounts is the store's to say.
    public static func scan(_ text: String) -> TweetEntities {
        mayHoldEntities(text) ? scanScalars(text) : TweetEntities()
    }

    /// Whether `text` has a byte every entity needs: "@", "#", the ":" of a link's scheme, or 0xEF, the first
    /// byte of the fullwidth "＃". Most tweets have none, and this one pass over their bytes spares them the
    /// walk over their scalars, which was 6 % of the daemon's time under durable posts on the writer thread,
    /// the posts' bound (perf, 64 × 4 posts). `EntityScannerTests` checks that both paths find the same.
    static func mayHoldEntities(_ text: String) -> Bool {
        text.utf8.contains { byte in
            byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ":") || byte == 0xEF
        }
    }

    /// The scan itself, scalar by scalar.
    static func scanScalars(_ text: String) -> TweetEntities {
        let scalars = Array(text.unicodeScalars)
        var found = TweetEntities()
        var index = 0
        while index < scalars.count {
            let startsWord = index == 0 || !continuesWord(scalars[index - 1])
            if startsWord, let end = linkEnd(scalars, from: index) {
                found.urls.append(.init(url: string(scalars[index..<end]), start: index, end: end))
                index = end
            } else if startsWord, scalars[index] == "@", let end = mentionEnd(scalars, from: index + 1) {
                found.mentions.append(.init(username: string(scalars[index + 1..<end]), start: index, end: end))
                index = end
            } else if startsWord, isHashSign(scalars[index]), let end = hashtagEnd(scalars, from: index + 1) {
                found.hashtags.append(.init(tag: string(scalars[index + 1..<end]), start: index, end: end))
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    /// How tags are compared: NFKC and full case folding, so `#Swift`, `#SWIFT` and fullwidth `#ＳＷＩＦＴ` are
    /// one tag.
    public static func tagKey(_ tag: String) -> String {
        tag.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }

    /// How usernames are compared: they are ASCII, so lowercase is their folding.
    public static func usernameKey(_ username: String) -> String {
        username.lowercased()
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    private static func isHashSign(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "#" || scalar == "\u{FF03}"
    }

    /// Letters, marks, digits, `_` and the signs: what a mention or tag may not follow directly.
    private static func continuesWord(_ scalar: Unicode.Scalar) -> Bool {
        isTagScalar(scalar) || scalar == "@" || isHashSign(scalar) || scalar == "/"
    }

    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII's letters, digits and "_" without the Unicode tables: the usual case, asked of every scalar.
        if scalar.isASCII { return isASCIIWordScalar(scalar) }
        return switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation:
            true
        default: false
        }
    }

    private static func isUsernameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && isASCIIWordScalar(scalar)
    }

    private static func isASCIIWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }

    /// The end of a username starting at `start`; nil when it is empty, too long, or runs on into a word.
    private static func mentionEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var end = start
        while end < scalars.count, isUsernameScalar(scalars[end]) { end += 1 }
        guard (1...15).contains(end - start) else { return nil }
        if end < scalars.count, continuesWord(scalars[end]) { return nil }
        return end
    }

    /// The end of a tag starting at `start`: letters, marks, digits and `_` of any script, one letter at least.
    private static func hashtagEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var end = start
        var hasLetter = false
        while end < scalars.count, isTagScalar(scalars[end]) {
            if scalars[end].properties.isAlphabetic { hasLetter = true }
            end += 1
        }
        return hasLetter ? end : nil
    }

    private static let schemes: [[Unicode.Scalar]] = ["https://", "http://"].map { Array($0.unicodeScalars) }
    /// Punctuation that ends a sentence rather than a link.
    private static let trailing: Set<Unicode.Scalar> = [".", ",", ":", ";", "!", "?", "'", "\"", ">", "]", "}"]

    /// The end of a link starting at `start`: up to the next space, less the punctuation after it.
    private static func linkEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard
            let scheme = schemes.first(where: { scheme in
                start + scheme.count <= scalars.count
                    && zip(scheme, scalars[start...]).allSatisfy { expected, actual in
                        actual.isASCII
                            ? (actual.value | 0x20 == expected.value && actual.properties.isAlphabetic)
                                || actual == expected
                            : actual.properties.lowercaseMapping == String(expected)
                    }
            })
        else { return nil }
        var end = start + scheme.count
        while end < scalars.count, !scalars[end].properties.isWhitespace { end += 1 }
        while end > start + scheme.count {
            let last = scalars[end - 1]
            if trailing.contains(last) {
                end -= 1
            } else if last == ")" {
                // A closing parenthesis belongs to the link only when the link opened one.
                let link = scalars[start..<end]
                guard link.filter({ $0 == "(" }).count < link.filter({ $0 == ")" }).count else { break }
                end -= 1
            } else {
                break
            }
        }
        return end > start + scheme.count ? end : nil
    }
}
