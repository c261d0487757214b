import Foundation
import Testing
import TwitterCore
import TwitterRules

/// The decisions of bookmarking, on facts made up here.
struct BookmarkRuleTests {
    static let alice = Tweet.Author(id: 1, username: "alice")
    static let bob = Tweet.Author(id: 2, username: "bob")

    @Test func aBookmarkGoesToTheOriginalAndTellsOnlyTheReader() throws {
        let plan = try BookmarkRule.decide(12, by: Self.alice.id, bookmarking: true, target: (7, Self.bob))
        #expect(plan.tweetID == 7, "a repost's bookmark keeps its original")
        let events = BookmarkRule.events(plan, by: Self.alice.id, bookmarking: true, changed: true)
        #expect(events == [.tweet(.bookmarked(id: 7, userID: Self.alice.id))], "no notification, no count")
        let bookmarked = try #require(events.first?.tweetEvent)
        #expect(ReaderMarks.reader(changedBy: bookmarked) == Self.alice.id, "only the reader's marks change")
        #expect(!TimelineFilter.mayConcern(events[0]), "no stream carries a bookmark")
    }

    @Test func aTweetNotThereOrHiddenAcrossABlockIsNotFound() {
        #expect(throws: TwitterError.self) {
            try BookmarkRule.decide(7, by: Self.alice.id, bookmarking: true, target: nil)
        }
    }

    @Test func bookmarkingTwiceOrRemovingNoBookmarkReportsNothing() throws {
        let plan = try BookmarkRule.decide(7, by: Self.alice.id, bookmarking: false, target: (7, Self.bob))
        #expect(BookmarkRule.events(plan, by: Self.alice.id, bookmarking: false, changed: false).isEmpty)
        #expect(
            BookmarkRule.events(plan, by: Self.alice.id, bookmarking: false, changed: true) == [
                .tweet(.unbookmarked(id: 7, userID: Self.alice.id))
            ])
    }
}
