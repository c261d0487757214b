import Foundation
import Testing
import TwitterCore

/// `[rates]` values and the token buckets they configure.
struct RateLimitTests {
    @Test(arguments: [
        ("300/3h", 300, 10_800.0), ("400/1d", 400, 86_400), ("5/30s", 5, 30), ("1/1m", 1, 60),
        (" 20 / 90m ", 20, 5400),
    ])
    func validRatesParse(_ text: String, _ count: Int, _ period: Double) throws {
        let limit = try #require(RateLimit(parsing: text))
        #expect(limit == RateLimit(count: count, period: period))
        #expect(limit.refillInterval == period / Double(count))
    }

    @Test(arguments: [
        "", "300", "300/", "/3h", "300/3", "300/h", "0/3h", "-1/3h", "300/0h", "300/-3h", "300/3w", "300/3hh",
        "3.5/1h", "300/1.5h", "a/1h", "300/3h/1", "300//3h", "/300/3h", "300/3h/", "300/3 h",
    ])
    func malformedRatesAreRefused(_ text: String) {
        #expect(RateLimit(parsing: text) == nil)
    }

    @Test(arguments: ["300/3h", "400/1d", "5/30s", "1/1m", "10/90s", "7/25h", "2/36h"])
    func theDescriptionParsesBackToTheSameLimit(_ text: String) throws {
        let limit = try #require(RateLimit(parsing: text))
        #expect(RateLimit(parsing: limit.description) == limit)
    }

    @Test func theDescriptionUsesTheLargestWholeUnit() {
        #expect(RateLimit(count: 300, period: 10_800).description == "300/3h")
        #expect(RateLimit(count: 400, period: 86_400).description == "400/1d")
        #expect(RateLimit(count: 10, period: 90).description == "10/90s")
        #expect(RateLimit(count: 10, period: 120).description == "10/2m")
        #expect(RateLimit(count: 1, period: 172_800).description == "1/2d")
    }

    // Periods and times below are binary fractions, so the bucket's arithmetic is exact.
    @Test func aFullBucketAllowsItsCountThenSaysWhenTheNextComes() {
        let limit = RateLimit(count: 4, period: 32)  // one back every 8 s
        let start = Date(timeIntervalSince1970: 1_000_000)
        var bucket = TokenBucket.full(limit, at: start)
        for _ in 0..<4 { #expect(bucket.take(at: start, limit: limit) == nil) }
        #expect(bucket.take(at: start, limit: limit) == 8)
        #expect(bucket.take(at: start.addingTimeInterval(4), limit: limit) == 4, "half a token has come back")
        #expect(bucket.take(at: start.addingTimeInterval(7.5), limit: limit) == 1, "whole seconds, rounded up")
        #expect(bucket.take(at: start.addingTimeInterval(8), limit: limit) == nil, "one is back")
        #expect(bucket.take(at: start.addingTimeInterval(8), limit: limit) == 8)
    }

    @Test func aBucketRefillsWithTimeButNeverPastItsCount() {
        let limit = RateLimit(count: 4, period: 32)
        let start = Date(timeIntervalSince1970: 1_000_000)
        var bucket = TokenBucket(tokens: 0, updatedAt: start)
        #expect(bucket.take(at: start.addingTimeInterval(16), limit: limit) == nil)
        #expect(bucket.take(at: start.addingTimeInterval(16), limit: limit) == nil)
        #expect(bucket.take(at: start.addingTimeInterval(16), limit: limit) == 8, "two came back in 16 s")

        // A day idle fills the bucket to its count, no further.
        let later = start.addingTimeInterval(86_400)
        for _ in 0..<4 { #expect(bucket.take(at: later, limit: limit) == nil) }
        #expect(bucket.take(at: later, limit: limit) == 8)
        #expect(bucket.tokens == 0)
    }

    @Test func aClockGoingBackNeitherRefillsNorRewinds() {
        let limit = RateLimit(count: 2, period: 20)
        let start = Date(timeIntervalSince1970: 1_000_000)
        var bucket = TokenBucket(tokens: 0, updatedAt: start)
        #expect(bucket.take(at: start.addingTimeInterval(-3600), limit: limit) == 10)
        #expect(bucket.updatedAt == start)
        #expect(bucket.take(at: start.addingTimeInterval(10), limit: limit) == nil)
    }
}

/// The text form of an export's position.
struct ArchiveCursorTests {
    @Test(arguments: ArchiveCursor.Section.allCases) func theTextFormRoundTrips(_ section: ArchiveCursor.Section) {
        for after: Int64 in [0, 1, 1203, Int64.max] {
            let cursor = ArchiveCursor(section: section, after: after)
            #expect(cursor.text == "\(section.rawValue).\(after)")
            #expect(ArchiveCursor(cursor.text) == cursor)
        }
    }

    @Test func theStartIsTheFirstTweet() {
        #expect(ArchiveCursor("tweets.0") == .start)
        #expect(ArchiveCursor.start.text == "tweets.0")
    }

    @Test(arguments: [
        "", "tweets", "tweets.", ".5", "tweets.-1", "tweets.1.2", "Tweets.1", "replies.1", "tweets.x",
        "tweets.99999999999999999999", "tweets 1", "follows..1",
    ])
    func garbageIsRefused(_ text: String) {
        #expect(ArchiveCursor(text) == nil)
    }

    @Test func insideAConversationTheCursorNamesItsLastMessage() {
        let cursor = ArchiveCursor(section: .conversations, after: 12, message: 3456)
        #expect(cursor.text == "conversations.12.3456")
        #expect(ArchiveCursor("conversations.12.3456") == cursor)
        #expect(ArchiveCursor("conversations.12") == ArchiveCursor(section: .conversations, after: 12))
        #expect(ArchiveCursor(section: .tweets, after: 1, message: 2).text == "tweets.1", "only conversations")
    }

    @Test(arguments: ["conversations.1.2.3", "conversations.1.", "conversations.1.-2", "lists.1.2", "conversations..2"])
    func aMessageOutsideConversationsIsRefused(_ text: String) {
        #expect(ArchiveCursor(text) == nil)
    }

    @Test func joiningPagesJoinsAConversationCutByAPage() {
        func page(_ conversations: [(Int64, [Int64])]) -> AccountArchivePage {
            var page = AccountArchivePage()
            page.conversations = conversations.map { id, messages in
                ArchivedConversation(
                    id: id, participants: ["alice", "bob"],
                    messages: messages.map {
                        ArchivedMessage(
                            id: $0, sender: "alice", text: "\($0)", createdAt: Date(timeIntervalSince1970: 0))
                    })
            }
            return page
        }
        var archive = AccountArchivePage()
        archive.append(page([(1, [1, 2])]))
        archive.append(page([(1, [3]), (2, [4])]))
        archive.append(page([(2, []), (3, [5])]))
        #expect(archive.conversations.map(\.id) == [1, 2, 3])
        #expect(archive.conversations.map { $0.messages.map(\.id) } == [[1, 2, 3], [4], [5]])
    }
}
