import Foundation
import GRDB
import Testing
import TwitterCore
import TwitterSQL

@testable import TwitterSQLite

/// The text index written after the commit (`SearchIndexer`): search finds the same whether a tweet is in the
/// index yet or only past its mark, commits index once enough tweets wait, and deletions keep the index sound.
struct SearchIndexerTests {
    static let texts = [
        "Dark roast coffee, black", "coffée: dark-roast", "roast dark coffee", "coffee with no sugar",
        "coffee, decaf, no sugar", "decaf only", "Crème brûlée at the CAFÉ", "creme brulee at the cafe",
        "a naïve question about #tea", "#Tea and #coffee", "#tea without anything else", "Москва зимой",
        "москва летом coffee", "東京 coffee", "don't panic", "don t panic either", "2024 was a year",
        "year 2024, again", "spoilers for the finale", "no spoilers here, just coffee", "ÆON flux", "æon again",
        "e\u{301}cole", "école", "🚀 launch coffee 🚀", "hyphen-ated words", "hyphen ated words",
        "ΕΛΛΗΝΙΚΑ γράμματα", "ελληνικα", "mixed123digits and 123", "CamelCaseWord", "camelcaseword", "Straße",
        "STRASSE", "ΣΊΣΥΦΟΣ", "שָׁלוֹם", "coffee🚀rocket", "a\u{332}b", "½ price", "ø and å",
    ]

    static let queries = [
        "coffee", "dark roast", #""dark roast""#, "cafe", "CAFÉ", "crème brûlée", "naive", "москва", "МОСКВА",
        "東京", "don't", "don", #""don t""#, "2024", "coffee -decaf", #"coffee -"no sugar""#, "from:alice -spoilers",
        "#tea -coffee", "#tea", "aeon", "æon", "ecole", "école", "launch", "hyphen-ated", #""hyphen ated""#,
        "ελληνικα", "γραμματα", "γράμματα", "mixed123digits", "123", "camelcaseword", "sugar -decaf",
        "from:bob coffee", "straße", "strasse", "σίσυφος", "לו", "rocket", "b", "½", "o", "a",
    ]

    /// Every page of every query, as ids in the order served.
    static func everyPage(_ search: SearchStore, authors: [String: Int64]) async throws -> [String: [Int64]] {
        var results: [String: [Int64]] = [:]
        for text in queries {
            let query = try SearchQuery(parsing: text)
            var position: SearchPosition? = SearchPosition()
            var ids: [Int64] = []
            while let at = position {
                let page = try await search.search(
                    query, authorID: query.author.flatMap { authors[$0] }, hiding: [], limit: 3, from: at)
                ids += page.tweets.map(\.id)
                position = page.next
            }
            results[text] = ids
        }
        return results
    }

    @Test func searchFindsTheSameWhetherTweetsAreIndexedYetOrNot() async throws {
        let database = try AppDatabase.inMemory()
        let users = UserStore(database: database)
        let alice = try await users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let bob = try await users.createUser(email: "bob@example.com", username: "bob", passwordHash: nil)
        let tweets = TweetStore(database: database, observer: CommitRecorder())
        for (index, text) in Self.texts.enumerated() {
            _ = try await tweets.postTweet(text: text, by: index.isMultiple(of: 3) ? bob.id : alice.id)
        }
        let search = SearchStore(database: database)
        let authors = ["alice": alice.id, "bob": bob.id]
        #expect(try await database.writer.read(SearchIndexer.indexedThrough) == 0, "nothing indexed yet")
        let unindexed = try await Self.everyPage(search, authors: authors)

        _ = try await database.writer.write { try SearchIndexer.indexWaiting($0, atMost: Int64(Self.texts.count / 2)) }
        #expect(try await database.writer.read(SearchIndexer.indexedThrough) == Int64(Self.texts.count / 2))
        let halfIndexed = try await Self.everyPage(search, authors: authors)

        try SearchIndexer.catchUp(database.writer)
        #expect(try await database.writer.read(SearchIndexer.indexedThrough) == Int64(Self.texts.count))
        let indexed = try await Self.everyPage(search, authors: authors)

        for query in Self.queries {
            #expect(unindexed[query] == indexed[query], "\(query): matched past the mark as the index matches")
            #expect(halfIndexed[query] == indexed[query], "\(query): half in the index, half past its mark")
        }
        // What the index does, so what the matcher must do too.
        let expected: [String: [Int64]] = [
            "coffee -decaf": [37, 25, 14, 13, 10, 3, 2, 4, 1, 20], "ecole": [24, 23], "γραμματα": [], "γράμματα": [28],
            "straße": [33], "strasse": [34], "σίσυφος": [35], "rocket": [37], "b": [38], "a": [38, 40, 17, 9],
        ]
        for (query, ids) in expected { #expect(indexed[query] == ids, "\(query)") }
    }

    @Test func aCommitIndexesTheWaitingTweetsOnceEnoughWait() async throws {
        let database = try AppDatabase.inMemory()
        let alice = try await UserStore(database: database).createUser(
            email: "alice@example.com", username: "alice", passwordHash: nil)
        let tweets = TweetStore(database: database, observer: CommitRecorder())
        let waits = (1..<SearchIndexer.lagBeforeIndexing).map {
            tweets.queued(PostDraft(text: "word\($0)", by: alice.id))
        }
        for wait in waits { _ = try await wait.value }
        // The writer runs one job at a time: this one runs after the commit loop and its indexing.
        try await database.writer.write { _ in }
        #expect(try await database.writer.read(SearchIndexer.indexedThrough) == 0, "fewer than the lag wait")

        let last = try await tweets.postTweet(text: "the one that tips it", by: alice.id)
        try await database.writer.write { _ in }
        #expect(try await database.writer.read(SearchIndexer.indexedThrough) == last.id)
        let inIndex = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tweet_search WHERE tweet_search MATCH 'tips OR word7'")
        }
        #expect(inIndex == 2)
    }

    @Test func deletingIndexedAndUnindexedTweetsKeepsTheIndexSound() async throws {
        let database = try AppDatabase.inMemory()
        let alice = try await UserStore(database: database).createUser(
            email: "alice@example.com", username: "alice", passwordHash: nil)
        let tweets = TweetStore(database: database, observer: CommitRecorder())
        var ids: [Int64] = []
        for index in 0..<4 { ids.append(try await tweets.postTweet(text: "quokka \(index)", by: alice.id).id) }
        _ = try await database.writer.write { try SearchIndexer.indexWaiting($0, atMost: 2) }
        try await tweets.deleteTweet(id: ids[0], by: alice.id)  // in the index
        try await tweets.deleteTweet(id: ids[3], by: alice.id)  // past its mark
        let search = SearchStore(database: database)
        let query = try SearchQuery(parsing: "quokka")
        for caughtUp in [false, true] {
            // FTS5's own check; with rank 1 it also checks the index against the whole tweet table, which
            // holds only once nothing waits past the mark.
            try await database.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO tweet_search(tweet_search, rank) VALUES ('integrity-check', ?)",
                    arguments: [caughtUp ? 1 : 0])
            }
            let found = try await search.search(query, authorID: nil, hiding: [], limit: 10, from: SearchPosition())
            #expect(found.tweets.map(\.id) == [ids[2], ids[1]], "caught up: \(caughtUp)")
            try SearchIndexer.catchUp(database.writer)
        }
    }
}
