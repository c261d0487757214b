import Foundation
import Testing

@testable import TwitterCore

struct TweetTextTests {
    static let rules = TweetText(maximumLength: 140)

    static func error(_ text: String) -> String? {
        do {
            _ = try rules.validated(text)
            return nil
        } catch {
            return error.fields["text"]
        }
    }

    @Test(arguments: [
        ("", "Tweet can not be empty"),
        ("   \n\t  ", "Tweet can not be empty"),
        (String(repeating: "a", count: 141), "Tweet is 141 characters; the limit is 140"),
        // A family emoji is four people and three zero-width joiners: one character, but 25 bytes, and a text weighs
        // at most 4 bytes a character on average (as Mastodon's count of scalars would have it, or less).
        (
            String(repeating: "👨‍👩‍👧‍👦", count: 141),
            "Tweet is longer than the limit of 140 characters (at most 560 bytes of UTF-8)"
        ),
        (
            String(repeating: "👨‍👩‍👧‍👦", count: 23),
            "Tweet is longer than the limit of 140 characters (at most 560 bytes of UTF-8)"
        ),
        (
            String(repeating: "👍🏽", count: 71),
            "Tweet is longer than the limit of 140 characters (at most 560 bytes of UTF-8)"
        ),
        (String(repeating: "\u{E9}", count: 141), "Tweet is 141 characters; the limit is 140"),
        (
            String(repeating: "😀", count: 141),
            "Tweet is longer than the limit of 140 characters (at most 560 bytes of UTF-8)"
        ),
        // One character of 400 KB: the letter and 200,000 combining accents are one grapheme cluster.
        (
            "a" + String(repeating: "\u{301}", count: 200_000),
            "Tweet is longer than the limit of 140 characters (at most 560 bytes of UTF-8)"
        ),
        (String(repeating: "e\u{301}", count: 141), "Tweet is 141 characters; the limit is 140"),
        ("nul\u{0}byte", "Tweet may not contain control characters other than newline"),
        ("bell\u{7}", "Tweet may not contain control characters other than newline"),
        ("tab\tinside", "Tweet may not contain control characters other than newline"),
    ])
    func rejected(text: String, message: String) {
        #expect(Self.error(text) == message)
    }

    @Test(arguments: [
        String(repeating: "a", count: 140),
        String(repeating: "👨‍👩‍👧‍👦", count: 22),
        String(repeating: "👍🏽", count: 70),
        String(repeating: "😀", count: 140),
        String(repeating: "e\u{301}", count: 140),
        String(repeating: "\u{E9}", count: 140),
        "two\nlines",
        "x",
    ])
    func accepted(text: String) {
        #expect(Self.error(text) == nil)
    }

    @Test func normalizationTrimsAndComposes() throws {
        #expect(try Self.rules.validated("  cafe\u{301}\n") == "caf\u{E9}")
        #expect(try Self.rules.validated("  cafe\u{301}\n").unicodeScalars.count == 4)
    }

    @Test func maximumIsConfigurable() {
        #expect(throws: TwitterError.self) { _ = try TweetText(maximumLength: 5).validated("123456") }
    }

    /// The ASCII path skips Foundation; it must trim and compose exactly as Foundation does.
    @Test(arguments: [
        "plain", "  both ends  ", "\t\n\u{0B}\u{0C}\r lead", "trail \r\n", "   ", "", "in  side", "\r\n",
        "a\u{1F}b", "del\u{7F}",
    ])
    func asciiTrimmingMatchesFoundation(text: String) throws {
        let foundation = text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        #expect(FreeText.trimmedASCII(text) == foundation)
        let categorised = foundation.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
        #expect(FreeText.containsControlCharacter(foundation, allowingNewline: true) == categorised)
    }

    @Test func nonASCIITextTakesTheFoundationPath() {
        #expect(FreeText.trimmedASCII(" caf\u{E9} ") == nil)
        #expect(TweetText.normalize("\u{A0}cafe\u{301}\u{2003}") == "caf\u{E9}")
    }
}
