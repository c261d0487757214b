import TwitterCore

/// Mentions and hashtags stand out in a tweet's text on a terminal (`Terminal.usesColor`: never under NO_COLOR,
/// never into a pipe; --json prints no text at all).
enum Highlight {
    /// The text of each mention and tag, as written, with how it is shown.
    struct Mark {
        let text: String
        let shown: String
    }

    /// The marks of `tweet`'s entities, cut from its text by their scalar offsets.
    static func marks(of tweet: Tweet) -> [Mark] {
        guard Terminal.usesColor else { return [] }
        let scalars = Array(tweet.text.unicodeScalars)
        func cut(_ start: Int, _ end: Int) -> String? {
            guard start >= 0, start < end, end <= scalars.count else { return nil }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[start..<end])
            return text
        }
        let mentions = tweet.entities.mentions.compactMap { mention in
            cut(mention.start, mention.end).map { Mark(text: $0, shown: Terminal.mention($0)) }
        }
        let tags = tweet.entities.hashtags.compactMap { tag in
            cut(tag.start, tag.end).map { Mark(text: $0, shown: Terminal.tag($0)) }
        }
        // Longest first, so `@al` never recolours part of `@alice`.
        return (mentions + tags).sorted { $0.text.count > $1.text.count }
    }

    /// `line` with each mark shown as it should be, where it stands as a whole word.
    static func apply(_ marks: [Mark], to line: String) -> String {
        guard !marks.isEmpty else { return line }
        return line.split(separator: " ", omittingEmptySubsequences: false).map { word in
            var word = String(word)
            for mark in marks where word.hasPrefix(mark.text) {
                let rest = word.dropFirst(mark.text.count)
                // `@alice,` is the mention and a comma; `@alicex` is no mention of `@alice`.
                guard rest.first.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true else { continue }
                word = mark.shown + rest
                break
            }
            return word
        }.joined(separator: " ")
    }
}
