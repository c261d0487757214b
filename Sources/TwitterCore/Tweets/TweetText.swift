import Foundation

/// The rules for a tweet's text: the free-text rule (`FreeText`) with lines allowed, 1 to `maximumLength`
/// characters weighing at most `FreeText.maximumBytes(characters: maximumLength)`.
public struct TweetText: Sendable {
    /// The longest text, in grapheme clusters.
    public let maximumLength: Int
    /// What the text is called in its errors: "Tweet", or "Message" for a direct message's.
    public let noun: String

    /// Creates the rules; 140 by default.
    public init(maximumLength: Int = 140, noun: String = "Tweet") {
        self.maximumLength = maximumLength
        self.noun = noun
    }

    /// Trims and composes, as every free text is (`FreeText.normalize`).
    public static func normalize(_ text: String) -> String {
        FreeText.normalize(text)
    }

    /// The validator of normalised text.
    public var validator: Validator<String> {
        let (maximum, noun) = (maximumLength, noun)
        return Validator<String>.notEmpty("\(noun) can not be empty")
            .and(
                FreeText.validator(
                    noun, allowsNewlines: true,
                    length: Validator { text in
                        let tooLong = "\(noun) is longer than the limit of \(maximum) characters"
                        if let heavy = FreeText.weightFailure(of: text, characters: maximum, tooLong: tooLong) {
                            return [heavy]
                        }
                        let count = text.count
                        return count > maximum
                            ? [ValidationFailure("\(noun) is \(count) characters; the limit is \(maximum)")] : []
                    }))
    }

    /// The normalised text, or `.invalidParams` with the message in `fields.text`.
    public func validated(_ text: String) throws(TwitterError) -> String {
        let normalized = Self.normalize(text)
        try Validator<String>.field(\.self, "text", validator).validate(normalized)
        return normalized
    }

    /// A quote's text: empty is allowed (the quote says it all), anything else as `validated`.
    public func validatedQuote(_ text: String) throws(TwitterError) -> String {
        let normalized = Self.normalize(text)
        return normalized.isEmpty ? normalized : try validated(text)
    }
}
