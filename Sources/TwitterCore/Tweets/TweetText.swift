import Foundation

/// The rules for a tweet's text: trimmed, NFC, 1 to `maximumLength` characters counted as extended
/// grapheme clusters (an emoji with a skin tone or a family is one), no control characters but newline.
public struct TweetText: Sendable {
    /// The longest text, in grapheme clusters.
    public let maximumLength: Int

    /// Creates the rules; 140 by default.
    public init(maximumLength: Int = 140) {
        self.maximumLength = maximumLength
    }

    /// Trims leading and trailing white space and newlines, and composes to NFC.
    public static func normalize(_ text: String) -> String {
        if let ascii = trimmedASCII(text) { return ascii }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }

    /// ASCII text is already NFC and its only white space is ASCII's, so it is trimmed here without
    /// Foundation, whose trimming and normalising cost more than all the rest of a post; nil for other text.
    static func trimmedASCII(_ text: String) -> String? {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == bytes.startIndex && bytes.index(after: last) == bytes.endIndex { return text }
        return String(text[first...last])
    }

    /// A control character other than newline; ASCII is checked byte by byte, the rest by its Unicode category.
    static func containsControlCharacter(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.contains { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
        }
        return text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
    }

    /// The validator of normalised text.
    public var validator: Validator<String> {
        let maximum = maximumLength
        return Validator<String>.notEmpty("Tweet can not be empty")
            .and(
                .rule("Tweet may not contain control characters other than newline") { text in
                    !Self.containsControlCharacter(text)
                }
            )
            .and(
                Validator { text in
                    let count = text.count
                    return count > maximum
                        ? [ValidationFailure("Tweet is \(count) characters; the limit is \(maximum)")] : []
                })
    }

    /// The normalised text, or `.invalidParams` with the message in `fields.text`.
    public func validated(_ text: String) throws(TwitterError) -> String {
        let normalized = Self.normalize(text)
        try Validator<String>.field(\.self, "text", validator).validate(normalized)
        return normalized
    }
}
