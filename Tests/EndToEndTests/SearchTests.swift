import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// Search and tags over the real socket: the operators, a malformed query, paging, a tweet found as soon as
/// its post is answered, people by prefix, and trending tags.
@Suite(.serialized) struct SearchTests {
    @Test func operatorsPagingAndAMalformedQuery() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("bob", on: daemon, signUp: true) { bob in
            _ = try await bob.call(API.Tweets.post, .init(text: "Crème brûlée at the café"))
        }
        try await SocialTests.as_("alice", on: daemon, signUp: true) { alice in
            let texts = [
                "dark roast coffee #Morning", "instant coffee, sadly", "coffee and dark chocolate", "tea for me",
            ]
            for text in texts { _ = try await alice.call(API.Tweets.post, .init(text: text)) }
            func found(_ query: String) async throws -> [String] {
                try await alice.call(API.Search.tweets, .init(query: query)).tweets.map(\.text)
            }
            #expect(try await found("CREME Brulee cafe") == ["Crème brûlée at the café"], "case and accents ignored")
            #expect(try await Set(found("coffee dark")) == ["dark roast coffee #Morning", "coffee and dark chocolate"])
            #expect(try await found(#""dark roast""#) == ["dark roast coffee #Morning"])
            #expect(try await found("coffee -instant -chocolate") == ["dark roast coffee #Morning"])
            #expect(try await found("from:BOB") == ["Crème brûlée at the café"])
            #expect(try await found("#morning coffee") == ["dark roast coffee #Morning"])
            #expect(try await found("tea from:bob").isEmpty)
            let unknown = try await SocialTests.code {
                try await alice.call(API.Search.tweets, .init(query: "from:nobody x"))
            }
            #expect(unknown == -32004)

            var seen: [Int64] = []
            var cursor: String?
            repeat {
                let page = try await alice.call(API.Search.tweets, .init(query: "coffee", limit: 2, cursor: cursor))
                seen += page.tweets.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen.count == 3 && Set(seen).count == 3, "three coffees, two to a page, each once")

            for (query, problem) in [
                (#""unclosed"#, #"has a " that is never closed"#), ("-", #"has a "-" with nothing after it"#),
                ("-coffee", "needs a word, phrase, #tag or from: besides what it leaves out"),
            ] {
                let error = try await alice.callError("search.tweets", ["query": .string(query)])
                #expect(error?.code == -32602, "\(query)")
                #expect(error?.data["fields"]?["query"] == .string(problem), "\(query)")
            }
            #expect(try await alice.callError("search.tweets", ["query": "x", "cursor": "-1"])?.code == -32602)
            #expect(try await alice.callError("search.users", ["query": " "])?.code == -32602)
        }
    }

    @Test func aPostIsFoundTheMomentItIsAnsweredAndPeopleByPrefix() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("reader", on: daemon, signUp: true) { reader in
            try await SocialTests.as_("writer", on: daemon, signUp: true) { writer in
                for index in 0..<20 {
                    let word = "zebra\(index)"
                    let posted = try await writer.call(API.Tweets.post, .init(text: "a \(word) passes"))
                    // Another connection, no wait: the index is written in the post's transaction.
                    let found = try await reader.call(API.Search.tweets, .init(query: word)).tweets.map(\.id)
                    #expect(found == [posted.id], "\(word)")
                }
                _ = try await writer.call(
                    API.Profiles.update, .init(firstName: "Walter", lastName: "Ritter"))
            }
            for prefix in ["WRI", "walt", "rit"] {
                #expect(
                    try await reader.call(API.Search.users, .init(query: prefix)).users.map(\.username) == ["writer"],
                    "\(prefix)")
            }
            #expect(try await reader.call(API.Search.users, .init(query: "itter")).users.isEmpty, "a prefix only")
        }
    }

    @Test func trendingRanksTagsByAccountsThenTweets() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        for (name, texts) in [
            ("ann", ["#Swift rocks", "#rust too", "#rust again", "#rust thrice"]), ("ben", ["#SWIFT yes"]),
            ("cid", ["#ｓｗｉｆｔ wide", "#go"]),
        ] {
            try await SocialTests.as_(name, on: daemon, signUp: true) { account in
                for text in texts { _ = try await account.call(API.Tweets.post, .init(text: text)) }
            }
        }
        try await SocialTests.as_("ann", on: daemon) { ann in
            let trending = try await ann.call(API.Tags.trending, .init(hours: 1, limit: 2))
            #expect(
                trending.tags == [
                    TrendingTag(tag: "swift", tweetsCount: 3, usersCount: 3),
                    TrendingTag(tag: "rust", tweetsCount: 3, usersCount: 1),
                ])
            #expect(try await ann.callError("tags.trending", ["hours": 169])?.code == -32602)
            #expect(try await ann.call(API.Tags.tweets, .init(tag: "Swift")).tweets.count == 3)
        }
    }
}
