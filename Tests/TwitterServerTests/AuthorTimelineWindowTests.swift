import Foundation
import Testing
import TwitterCore

@testable import TwitterServer

/// A new tweet put into an account's window (`AuthorTimelineCache.insertNewest(_:into:)`): in place when the cache
/// holds the only reference, into a new window when a reader holds it. Both give the same window, and a reader's
/// window never changes under it.
struct AuthorTimelineWindowTests {
    typealias Window = AuthorTimelineCache.Window

    static let author = Tweet.Author(id: 5, username: "five")

    static func tweet(_ id: Int64) -> Tweet {
        Tweet(id: id, author: author, text: "tweet \(id)", createdAt: Date(timeIntervalSince1970: 1_000_000))
    }

    /// Tweets `ids`, newest first, as a window of `depth`.
    static func window(_ ids: [Int64], depth: Int, isComplete: Bool = true) -> Window {
        Window(ids.map(tweet), isComplete: isComplete, depth: depth)
    }

    @Test(arguments: [(depth: 4, held: 2), (depth: 3, held: 3)])
    func inPlaceAndIntoACopyGiveTheSameWindow(depth: Int, held: Int) {
        let ids = (1...Int64(held)).reversed().map { $0 }
        var alone = Self.window(ids, depth: depth)
        let before = ObjectIdentifier(alone)
        let droppedInPlace = AuthorTimelineCache.insertNewest(Self.tweet(10), into: &alone)
        #expect(ObjectIdentifier(alone) == before, "a window no one else holds takes the tweet in place")
        var shared = Self.window(ids, depth: depth)
        let reader = shared
        let droppedInCopy = AuthorTimelineCache.insertNewest(Self.tweet(10), into: &shared)

        #expect(shared !== reader, "a window a reader holds is replaced, not changed")
        #expect(alone.ids == shared.ids)
        #expect(alone.tweets.map(\.text) == shared.tweets.map(\.text))
        #expect(alone.isComplete == shared.isComplete)
        #expect(droppedInPlace?.id == droppedInCopy?.id)
        if held < depth {
            #expect(shared.ids == [10] + ids)
            #expect(shared.isComplete, "nothing pushed out: it still holds every tweet")
            #expect(droppedInCopy == nil)
        } else {
            #expect(shared.ids == [10] + ids.dropLast())
            #expect(!shared.isComplete, "the oldest pushed out: no longer every tweet")
            #expect(droppedInCopy?.id == ids.last)
        }
        #expect(reader.ids == ids, "the reader's window is as it was taken")
        #expect(reader.tweets.map(\.id) == ids)
        #expect(reader.isComplete)
    }
}
