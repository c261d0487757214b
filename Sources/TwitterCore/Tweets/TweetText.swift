import Foundation

/// The rules for a tweet's text: the free-text rule (`FreeText`) with lines allowed, 1 to `maximumLength`
/// characters.
public struct TweetText: Sendable {
    /// The longest text, in grapheme clusters.
    public let maximumLength: Int

    /// Creates the rules; 140 by default.
    public init(maximumLength: Int = 140) {
        self.maximumLength = maximumLength
    }

    /// Trims and composes, as every free text is (`FreeText.normalize`).
    public static func normalize(_ text: String) -> String {
        FreeText.normalize(text)
    }

    /// The validator of normalised text.
    public var validator: Validator<String> {
        let maximum = maximumLength
        return Validator<String>.notEmpty("Tweet can not be empty")
            .and(
                FreeText.validator(
                    "Tweet", allowsNewlines: true,
                    length: Validator { text in
                        let count = text.count
                        return count > maximum
                            ? [ValidationFailure("Tweet is \(count) characters; the limit is \(maximum)")] : []
                    }))
    }

    /// The normalised text, or `.invalidParams` with the message in `fields.text`.
    public func validated(_ text: String) throws(TwitterError) -> String {
        let normalized = Self.normalize(text)
        try Validator<String>.field(\.self, "text", validator).validate(normalized)
        return normalized
    }
}
