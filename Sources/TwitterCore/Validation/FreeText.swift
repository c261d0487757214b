import Foundation

/// The one rule for text that people type (tweets, messages, names, bios, list names, report reasons, token
/// names, and every free-text field that comes later): trimmed, composed to NFC, no control characters (newline
/// only where the field allows lines), and lengths counted in extended grapheme clusters, as people count
/// characters (an emoji with a skin tone is one), each length also a bound in bytes (`maximumBytes`).
public enum FreeText {
    /// The average weight a character may have, in UTF-8 bytes. A grapheme cluster has no bound of its own (one
    /// letter followed by 200,000 combining marks is one), so every maximum in characters is also one in bytes:
    /// 4 a character is never stricter than Mastodon's count of Unicode scalars (a scalar is at most 4 bytes),
    /// and it bounds what a page of other accounts' texts can weigh (docs/SECURITY.md, "The weight of a page").
    public static let maximumBytesPerCharacter = 4

    /// The most UTF-8 bytes a text of at most `characters` characters may hold.
    public static func maximumBytes(characters: Int) -> Int {
        characters.multipliedReportingOverflow(by: maximumBytesPerCharacter).overflow
            ? Int.max : characters * maximumBytesPerCharacter
    }

    /// The failure of a text heavier than `characters` characters may be, worded as `tooLong` with the bound
    /// in bytes; nil when it is light enough. Checked before any count of clusters, which is slow on a heavy
    /// text (the byte count of a native string is not).
    public static func weightFailure(of text: String, characters: Int, tooLong: String) -> ValidationFailure? {
        let bytes = maximumBytes(characters: characters)
        guard text.utf8.count > bytes else { return nil }
        return ValidationFailure("\(tooLong) (at most \(bytes) bytes of UTF-8)")
    }

    /// Trims leading and trailing white space and newlines, and composes to NFC.
    public static func normalize(_ text: String) -> String {
        if let ascii = trimmedASCII(text) { return ascii }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }

    /// The validator of normalised text: no control characters (but newline when `allowsNewlines`), then
    /// `length`. `label` starts the message, in the seed's wording ("Bio may not contain …").
    public static func validator(
        _ label: String, allowsNewlines: Bool, length: Validator<String>
    ) -> Validator<String> {
        let message =
            allowsNewlines
            ? "\(label) may not contain control characters other than newline"
            : "\(label) may not contain control characters or line breaks"
        return Validator<String>.rule(message) { !containsControlCharacter($0, allowingNewline: allowsNewlines) }
            .and(length)
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

    /// A control character (other than newline when `allowingNewline`); ASCII is checked byte by byte, the
    /// rest by its Unicode category.
    static func containsControlCharacter(_ text: String, allowingNewline: Bool) -> Bool {
        let newline: UInt8 = allowingNewline ? 0x0A : 0xFF
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.contains { ($0 < 0x20 && $0 != newline) || $0 == 0x7F }
        }
        return text.unicodeScalars.contains { scalar in
            !(allowingNewline && scalar == "\n") && scalar.properties.generalCategory == .control
        }
    }
}
