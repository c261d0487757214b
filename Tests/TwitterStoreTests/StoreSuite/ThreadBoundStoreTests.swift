import Foundation
import Testing
import TwitterCore

/// A thread of any size is read in bounded time and within SQLite's host parameters, on every backend.
struct ThreadBoundStoreTests {
    @Test(arguments: StoreBackend.all)
    func aThreadOfFortyThousandRepliesAnswersWithinItsBound(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let root = try await fixture.post("ask me anything", by: alice)
        let first = try await fixture.post("the first answer", by: bob, inReplyTo: root.id)
        try await fixture.raw.replies(40_000, root.id, bob.id)
        let thread = try #require(try await fixture.tweets.thread(of: root.id, descendantLimit: 200))
        #expect(thread.descendants.count > 200, "enough to say it was cut")
        #expect(thread.descendants.count == ThreadRows.levelReadLimit, "one level, read up to its bound")
        #expect(thread.descendants.first?.id == first.id, "the oldest replies first")
        let conversation = Conversation(thread)
        #expect(conversation.truncated && conversation.descendants.count == 200)
    }
}
