import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `search.*` and `tags.*`.
struct SearchRouteTests: RouteTesting {
    static let routes = [API.Search.tweets.name, API.Search.users.name, API.Tags.tweets.name, API.Tags.trending.name]

    @Test func searchTweetsMatchesEveryWordAndTheGrammarButNotHiddenAccounts() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await alice.call(API.Tweets.post, .init(text: "Café au lait"))
        _ = try await bob.call(API.Tweets.post, .init(text: "cafe noir"))
        _ = try await bob.call(API.Tweets.post, .init(text: "tea"))
        let both = try await alice.call(API.Search.tweets, .init(query: "CAFE"))
        #expect(Set(both.tweets.map(\.text)) == ["Café au lait", "cafe noir"], "case and diacritics ignored")
        #expect(
            try await alice.call(API.Search.tweets, .init(query: "cafe from:bob")).tweets.map(\.text) == ["cafe noir"])
        #expect(
            try await alice.call(API.Search.tweets, .init(query: "cafe -noir")).tweets.map(\.text) == ["Café au lait"])
        #expect(try await alice.call(API.Search.tweets, .init(query: "\"au lait\"")).tweets.count == 1)
        _ = try await alice.call(API.Users.block, .init(username: "bob"))
        #expect(try await alice.call(API.Search.tweets, .init(query: "cafe")).tweets.map(\.text) == ["Café au lait"])

        #expect(try await alice.refusal(API.Search.tweets, .init(query: "\"unclosed")).code == -32602)
        #expect(try await alice.refusal(API.Search.tweets, .init(query: "cafe from:nobody")).code == -32004)
        #expect(try await alice.refusal(API.Search.tweets, .init(query: "cafe", cursor: "x")).code == -32602)
        #expect(try await daemon.connect().refusal(API.Search.tweets, .init(query: "cafe")).code == -32001)
    }

    @Test func searchUsersMatchesNamePrefixesButNotHiddenAccounts() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let alfred = try await daemon.signUp("alfred")
        _ = try await daemon.signUp("bob")
        _ = try await alfred.call(API.Profiles.update, .init(firstName: "Fred"))
        #expect(
            Set(try await alice.call(API.Search.users, .init(query: "AL")).users.map(\.username)) == [
                "alice", "alfred",
            ])
        #expect(try await alice.call(API.Search.users, .init(query: "fre")).users.map(\.username) == ["alfred"])
        _ = try await alfred.call(API.Users.block, .init(username: "alice"))
        #expect(try await alice.call(API.Search.users, .init(query: "al")).users.map(\.username) == ["alice"])
        _ = try await alice.call(API.Users.mute, .init(username: "bob"))
        #expect(try await alice.call(API.Search.users, .init(query: "bo")).users.isEmpty, "a muted account")
        #expect(try await alice.refusal(API.Search.users, .init(query: "  ")).code == -32602)
        #expect(try await daemon.connect().refusal(API.Search.users, .init(query: "al")).code == -32001)
    }

    @Test func tagsTweetsPagesATagsTweetsWithOrWithoutTheHash() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await alice.call(API.Tweets.post, .init(text: "learning #Swift"))
        _ = try await bob.call(API.Tweets.post, .init(text: "#swift is fun"))
        _ = try await bob.call(API.Tweets.post, .init(text: "#rust too"))
        let page = try await alice.call(API.Tags.tweets, .init(tag: "#SWIFT"))
        #expect(page.tweets.map(\.text) == ["#swift is fun", "learning #Swift"])
        #expect(try await alice.call(API.Tags.tweets, .init(tag: "swift", limit: 1)).tweets.count == 1)
        #expect(try await alice.refusal(API.Tags.tweets, .init(tag: "two words")).code == -32602)
        #expect(try await alice.refusal(API.Tags.tweets, .init(tag: "123")).code == -32602)
        #expect(try await daemon.connect().refusal(API.Tags.tweets, .init(tag: "swift")).code == -32001)
    }

    @Test func trendingRanksTagsByAccountsThenTweets() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await alice.call(API.Tweets.post, .init(text: "#solo #solo"))
        _ = try await alice.call(API.Tweets.post, .init(text: "#solo again"))
        _ = try await alice.call(API.Tweets.post, .init(text: "#shared"))
        _ = try await bob.call(API.Tweets.post, .init(text: "#Shared"))
        let trending = try await alice.call(API.Tags.trending, .init())
        #expect(trending.tags.map(\.usersCount) == [2, 1])
        #expect(trending.tags.map(\.tweetsCount) == [2, 2])
        #expect(try await alice.refusal(API.Tags.trending, .init(hours: 0)).code == -32602)
        #expect(try await alice.refusal(API.Tags.trending, .init(limit: 101)).code == -32602)
        #expect(try await daemon.connect().refusal(API.Tags.trending, .init()).code == -32001)
    }
}
