import Testing

@testable import TwitterCore

/// Mentions, hashtags and links, with offsets in Unicode scalars of the text, `end` exclusive.
struct EntityScannerTests {
    /// The text between an entity's offsets, cut by scalars as a client would.
    static func cut(_ text: String, _ start: Int, _ end: Int) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: Array(text.unicodeScalars)[start..<end])
        return result
    }

    @Test func offsetsCountScalarsPastEmojiCombiningMarksAndRightToLeftText() {
        // A family emoji is five scalars, q̃ is two (no precomposed form), and Hebrew runs right to left.
        let text = "👩‍👩‍👧 q̃ @alice שלום #עברית see https://example.org/ש. #Café"
        let found = EntityScanner.scan(text)
        #expect(found.mentions.map(\.start) == [9], "5 scalars, a space, 2 scalars, a space")
        #expect(found.mentions.map { Self.cut(text, $0.start, $0.end) } == ["@alice"])
        #expect(found.hashtags.map(\.tag) == ["עברית", "Café"])
        #expect(found.hashtags.map { Self.cut(text, $0.start, $0.end) } == ["#עברית", "#Café"])
        #expect(found.urls.map(\.url) == ["https://example.org/ש"], "the sentence's full stop is not the link's")
        #expect(found.urls.map { Self.cut(text, $0.start, $0.end) } == ["https://example.org/ש"])
        let entities = TweetEntities(of: text, mentioned: ["Alice"])
        #expect(entities.mentions == [.init(username: "Alice", start: 9, end: 15)], "named as the account spells it")
    }

    @Test func onlyMentionsOfKnownAccountsAreKept() {
        let entities = TweetEntities(of: "@alice and @nobody and @ALICE", mentioned: ["alice"])
        #expect(entities.mentions.map(\.start) == [0, 23])
        #expect(entities.mentions.allSatisfy { $0.username == "alice" })
        #expect(TweetEntities(of: "@nobody here", mentioned: []).mentions.isEmpty)
    }

    @Test func signsInsideWordsAreNoEntities() {
        let found = EntityScanner.scan("mail@example.com C# a#b @@x ##y @a_very_long_name_x #123 #_ #1a")
        #expect(found.mentions.isEmpty, "an address, a doubled sign, or a name past 15 characters")
        #expect(found.hashtags.map(\.tag) == ["1a"], "a tag needs a letter and must start a word")
    }

    @Test func linksStopAtSpacesAndSentencePunctuation() {
        let found = EntityScanner.scan(
            "(see https://en.wikipedia.org/wiki/Swift_(language)) and HTTP://X.ORG/a?b=1, ok http:// ftp://x")
        #expect(found.urls.map(\.url) == ["https://en.wikipedia.org/wiki/Swift_(language)", "HTTP://X.ORG/a?b=1"])
        #expect(found.hashtags.isEmpty && found.mentions.isEmpty, "nothing is found inside a link")
    }

    @Test func tagsCompareAcrossCaseAndWidth() {
        let keys = ["Swift", "SWIFT", "ｓｗｉｆｔ", "ＳＷＩＦＴ"].map(EntityScanner.tagKey)
        #expect(Set(keys) == ["swift"])
        #expect(EntityScanner.tagKey("Straße") == EntityScanner.tagKey("STRASSE"), "full case folding")
        #expect(EntityScanner.tagKey("Swift") != EntityScanner.tagKey("Swifty"))
        let fullwidth = EntityScanner.scan("＃ＴＡＧ")
        #expect(fullwidth.hashtags.map { EntityScanner.tagKey($0.tag) } == ["tag"], "a fullwidth sign is a sign")
    }

    /// The byte check that spares most tweets the scalar walk finds what the walk finds, on texts built from
    /// the pieces entities are made of (a fixed generator, so a failure repeats).
    @Test func theQuickByteCheckAndTheFullScanAgree() {
        let pieces = [
            "@", "#", "\u{FF03}", "alice", "http", "s", "://", ":", " ", "x", "é", "_", "1", ".", "(", ")", "HTTP",
            "C", "/", "ü\u{308}", "🚀", "\u{FF03}ｔａｇ", "ef", "\u{EF}",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var withEntities = 0
        var skipped = 0
        for _ in 0..<5000 {
            let text = (0..<(1 + next(12))).map { _ in pieces[next(pieces.count)] }.joined()
            let full = EntityScanner.scanScalars(text)
            #expect(EntityScanner.scan(text) == full, "\(text)")
            if !full.isEmpty { withEntities += 1 }
            if !EntityScanner.mayHoldEntities(text) { skipped += 1 }
        }
        #expect(withEntities > 500 && skipped > 500, "both paths were taken: \(withEntities), \(skipped)")
    }
}
