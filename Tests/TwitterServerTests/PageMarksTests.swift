import Foundation
import Testing
import TwitterCore

@testable import TwitterServer

/// The marked-page fast path (`PageMarks`: the kept bytes with a reader's marks written over them) against the
/// slow path (the page's tweets marked for the reader and written again), for readers with and without marks.
struct PageMarksTests {
    static let original = Tweet(
        id: 2, author: .init(id: 1, username: "alice"), text: "original \"false\" text",
        createdAt: Date(timeIntervalSince1970: 1_770_000_000), counts: TweetCounts(likes: 3, reposts: 1, replies: 1))
    static let page = [
        Tweet(
            id: 9, author: .init(id: 3, username: "carol"), text: "",
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), repostOf: original),
        Tweet(
            id: 7, author: .init(id: 2, username: "bob"), text: "likedByMe\":false ünïcode",
            createdAt: Date(timeIntervalSince1970: 1_780_000_000), inReplyToID: 2),
        original,
    ]

    static let readers = [
        ReaderMarks(),
        ReaderMarks(liked: [2]),
        ReaderMarks(liked: [7, 9], reposted: [2], bookmarked: [2, 7]),
        ReaderMarks(liked: [2, 7, 9], reposted: [2, 7, 9], bookmarked: [2, 7, 9]),
        ReaderMarks(liked: [100], reposted: [101]),
    ]

    @Test(arguments: readers)
    func theKeptBytesMarkedAreThePageWrittenForTheReader(marks: ReaderMarks) throws {
        let json = TweetJSONCache()
        let kept = FeedPageCache.Page(Self.page, json: json)
        #expect(kept.unmarkedJSON == FeedPage(Self.page, json: json).json)
        let marked = try #require(kept.marks?.applied(marks, to: kept.unmarkedJSON))
        #expect(marked == FeedPage(Self.page.map(marks.applied), json: TweetJSONCache()).json)
    }

    @Test func aPageHoldingAQuoteHasNoMarksToWriteOver() {
        let quote = Tweet(
            id: 11, author: .init(id: 2, username: "bob"), text: "look",
            createdAt: Date(timeIntervalSince1970: 1_791_000_000), quoteOfID: 2)
        #expect(FeedPageCache.Page([quote] + Self.page, json: TweetJSONCache()).marks == nil)
    }

    @Test func aKeptTweetCarryingAMarkIsNoBaseToWriteOver() {
        var liked = Self.page
        liked[1].likedByMe = true
        let kept = FeedPageCache.Page(liked, json: TweetJSONCache())
        #expect(kept.marks?.applied(ReaderMarks(liked: [2]), to: kept.unmarkedJSON) == nil)
    }
}
