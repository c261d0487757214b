import Foundation
import Testing
import TwitterCore
import TwitterTUI

@Suite struct FormatTests {
    @Test(arguments: [
        ("a", 1), ("字", 2), ("😀", 2), ("e\u{301}", 1), ("👍🏽", 2), ("❤️", 2), ("\u{301}", 0), ("🇫🇷", 2),
    ])
    func displayWidthOfOneCluster(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func wrappingCountsColumnsNotCharacters() {
        // Ten CJK characters are twenty columns: they fill two lines of ten, not one.
        #expect(TextWrap.wrap("一二三四五 六七八九十", width: 10) == ["一二三四五", "六七八九十"])
        #expect(TextWrap.wrap("e\u{301}e\u{301}e\u{301} abc", width: 7) == ["e\u{301}e\u{301}e\u{301} abc"])
        #expect(TextWrap.wrap("😀😀😀😀😀😀", width: 5) == ["😀😀", "😀😀", "😀😀"])
        #expect(TextWrap.wrap("one two\nthree", width: 20) == ["one two", "three"])
    }

    @Test(arguments: [
        (1, "tweet", "1 tweet"), (2, "tweet", "2 tweets"), (0, "reply", "0 replies"), (1, "reply", "1 reply"),
        (3, "follower", "3 followers"),
    ])
    func plurals(count: Int, noun: String, text: String) {
        #expect(HumanFormat.counted(count, noun) == text)
    }

    @Test func datesForPeople() {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let now = Fixture.now
        #expect(HumanFormat.age(of: now.addingTimeInterval(-30), now: now, timeZone: utc) == "now")
        #expect(HumanFormat.age(of: now.addingTimeInterval(-300), now: now, timeZone: utc) == "5m")
        #expect(HumanFormat.age(of: now.addingTimeInterval(-3 * 3600), now: now, timeZone: utc) == "3h")
        #expect(HumanFormat.age(of: now.addingTimeInterval(-2 * 86_400), now: now, timeZone: utc) == "Nov 23")
        #expect(HumanFormat.age(of: now.addingTimeInterval(-400 * 86_400), now: now, timeZone: utc) == "Oct 21, 2025")
        #expect(HumanFormat.month(of: now, timeZone: utc) == "November 2026")
    }
}
