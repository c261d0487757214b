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
        text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }

    /// The validator of normalised text.
    public var validator: Validator<String> {
        let maximum = maximumLength
        return Validator<String>.notEmpty("Tweet can not be empty")
            .and(
                .rule("Tweet may not contain control characters other than newline") { text in
                    !text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
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
