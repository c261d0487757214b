import TwitterCore

/// Mentions, tags and links stand out in a tweet's text, from the entities the daemon found (their offsets count
/// Unicode scalars), as twctl marks them.
public enum Highlight {
    /// The style of each character of `text`.
    public static func styles(of text: String, entities: TweetEntities) -> [CellStyle] {
        var starts: [Int] = []  // the scalar offset where each character starts
        var offset = 0
        for character in text {
            starts.append(offset)
            offset += character.unicodeScalars.count
        }
        var styles = [CellStyle](repeating: [], count: starts.count)
        func mark(_ start: Int, _ end: Int, _ style: CellStyle) {
            for (index, characterStart) in starts.enumerated() where characterStart >= start && characterStart < end {
                styles[index] = style
            }
        }
        for mention in entities.mentions { mark(mention.start, mention.end, .mention) }
        for tag in entities.hashtags { mark(tag.start, tag.end, .tag) }
        for link in entities.urls { mark(link.start, link.end, .link) }
        return styles
    }

    /// `text` wrapped to `width` columns, each line as styled runs.
    public static func lines(of text: String, entities: TweetEntities, width: Int) -> [[StyledRun]] {
        let characters = Array(text)
        let styles = styles(of: text, entities: entities)
        var cursor = 0
        return TextWrap.wrap(text, width: width).map { line in
            var runs: [StyledRun] = []
            for character in line {
                // Wrapping only drops spaces and line breaks: skip to this character in the original.
                while cursor < characters.count && characters[cursor] != character { cursor += 1 }
                let style = cursor < styles.count ? styles[cursor] : []
                cursor += 1
                if let last = runs.last, last.style == style {
                    runs[runs.count - 1].text.append(character)
                } else {
                    runs.append(StyledRun(String(character), style))
                }
            }
            return runs
        }
    }
}
