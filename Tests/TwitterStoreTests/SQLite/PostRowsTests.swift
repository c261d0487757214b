import Foundation
import Testing
import TwitterCore

@testable import TwitterSQL
@testable import TwitterSQLite

/// `PostRows.insertTweets` reads a batch's authors by key when it has one (a lone post) and as a list when it has
/// several: both name each tweet's own author.
struct PostRowsTests {
    @Test func aBatchOfOneAuthorAndABatchOfSeveralNameEveryTweetsAuthor() async throws {
        let database = try AppDatabase.inMemory()
        let users = database.stores(observer: CommitRecorder()).users
        var authors: [User] = []
        for name in ["alice", "bob", "carol"] {
            authors.append(try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil))
        }
        let drafts = [authors[1]] + [authors[0], authors[1], authors[2], authors[0]]
        let tweets = drafts.map {
            NewTweet(authorID: $0.id, text: "by \($0.username)", idempotencyKey: nil, inReplyToID: nil, quoteOfID: nil)
        }
        let now = Date()
        let (alone, several) = try await database.transaction { connection in
            let alone = try await PostRows.insertTweets(Array(tweets.prefix(1)), at: now, on: connection)
            let several = try await PostRows.insertTweets(Array(tweets.dropFirst()), at: now, on: connection)
            return (alone, several)
        }
        #expect(alone.map(\.username) == ["bob"])
        #expect(several.map(\.username) == ["alice", "bob", "carol", "alice"])
        let ids = (alone + several).map(\.id)
        #expect(ids == ids.sorted() && Set(ids).count == 5)
    }
}
