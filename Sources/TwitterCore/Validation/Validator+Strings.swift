import Foundation

extension Validator where Value == String {
    /// Fails on an empty string (spaces count as content; trim before if they should not).
    public static func notEmpty(_ message: String) -> Validator {
        rule(message) { !$0.isEmpty }
    }

    /// Checks the length counted in extended grapheme clusters, as people count characters, and the weight
    /// (`FreeText.maximumBytes(characters:)`): the most characters allowed is also a bound in bytes, so that
    /// one character followed by 200,000 combining marks, which is one cluster, is refused.
    public static func length(
        _ range: ClosedRange<Int>, tooShort: String, tooLong: String
    ) -> Validator {
        Validator { text in
            if let heavy = FreeText.weightFailure(of: text, characters: range.upperBound, tooLong: tooLong) {
                return [heavy]
            }
            let count = text.count
            if count < range.lowerBound { return [ValidationFailure(tooShort)] }
            if count > range.upperBound { return [ValidationFailure(tooLong)] }
            return []
        }
    }

    /// At least `minimum` grapheme clusters.
    public static func minimumLength(_ minimum: Int, _ message: String) -> Validator {
        rule(message) { $0.count >= minimum }
    }

    /// At most `maximum` grapheme clusters, weighing at most `FreeText.maximumBytes(characters: maximum)`.
    public static func maximumLength(_ maximum: Int, _ message: String) -> Validator {
        Validator { text in
            if let heavy = FreeText.weightFailure(of: text, characters: maximum, tooLong: message) { return [heavy] }
            return text.count <= maximum ? [] : [ValidationFailure(message)]
        }
    }

    /// The whole string matches the regular expression `pattern`.
    public static func matches(_ pattern: String, _ message: String) -> Validator {
        let expression = try? NSRegularExpression(pattern: pattern)
        return rule(message) { text in
            guard let expression else { return false }
            let range = NSRange(text.startIndex..., in: text)
            return expression.firstMatch(in: text, options: [.anchored], range: range)?.range == range
        }
    }

    /// A plausible e-mail address: one `@`, a local part of at most 64 bytes, a dotted domain of letters,
    /// digits and hyphens, no spaces, and at most 254 bytes in all.
    public static func email(_ message: String) -> Validator {
        rule(message, EmailAddress.isPlausible)
    }
}

/// The e-mail syntax the daemon accepts; deliberately simple, since only a sent mail proves an address.
enum EmailAddress {
    @Sendable static func isPlausible(_ text: String) -> Bool {
        guard text.utf8.count <= 254, !text.contains(where: { $0.isWhitespace || $0.isNewline }) else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last else { return false }
        guard !local.isEmpty, local.utf8.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains("..")
        else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}
