/// Word wrapping by display width: words move to the next line whole, a word wider than a line is cut between
/// grapheme clusters, and the author's own line breaks stay.
public enum TextWrap {
    /// The lines of `text`, none wider than `width` columns.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let limit = max(width, 1)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for word in paragraph.split(separator: " ") {
                var word = Substring(word)
                var wordWidth = DisplayWidth.of(word)
                if used > 0 && used + 1 + wordWidth <= limit {
                    line += " " + word
                    used += 1 + wordWidth
                    continue
                }
                if used > 0 {
                    lines.append(line)
                    (line, used) = ("", 0)
                }
                while wordWidth > limit {
                    let (head, rest) = cut(word, columns: limit)
                    lines.append(String(head))
                    word = rest
                    wordWidth = DisplayWidth.of(word)
                }
                (line, used) = (String(word), wordWidth)
            }
            lines.append(line)
        }
        return lines
    }

    /// The longest start of `word` that fits in `columns` (at least one cluster), and the rest.
    static func cut(_ word: Substring, columns: Int) -> (Substring, Substring) {
        var used = 0
        var end = word.startIndex
        while end < word.endIndex {
            let next = DisplayWidth.of(word[end])
            if used + next > columns && end > word.startIndex { break }
            used += next
            end = word.index(after: end)
        }
        return (word[..<end], word[end...])
    }
}
