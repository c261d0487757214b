import Foundation
import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// The daemon writes some answers' JSON by hand for speed; clients decode them with the types TwitterAPI
/// declares. These tests hold the two against each other, and check the answers whose nulls must be present.
struct WireAgreementTests {
    static let tweets = [
        Tweet(
            id: 7, author: .init(id: 2, username: "bob"), text: "quote \" and ünïcode\nline",
            createdAt: Date(timeIntervalSince1970: 1_790_000_000.123)),
        Tweet(
            id: 3, author: .init(id: 1, username: "alice"), text: "hello",
            createdAt: Date(timeIntervalSince1970: 1_780_000_000)),
        Tweet(
            id: 2, author: .init(id: 1, username: "alice"), text: "@Bob عن #سلام and https://a.example/\"x\"",
            createdAt: Date(timeIntervalSince1970: 1_770_000_000),
            entities: TweetEntities(of: "@Bob عن #سلام and https://a.example/\"x\"", mentioned: ["bob"])),
    ]

    static func decode<Value: Decodable>(_ type: Value.Type, _ bytes: [UInt8]) throws -> Value {
        try JSONValueDecoder().decode(type, from: try JSONParser().parse(bytes))
    }

    @Test func aHandWrittenTweetDecodesAsTheDeclaredTweet() throws {
        for tweet in Self.tweets {
            var bytes: [UInt8] = []
            tweet.writeJSON(into: &bytes)
            #expect(try Self.decode(Tweet.self, bytes) == tweet)
        }
    }

    @Test func aHandWrittenFeedPageDecodesAsTheDeclaredPage() throws {
        let page = try Self.decode(API.Tweets.TweetPage.self, FeedPage(Self.tweets, json: TweetJSONCache()).json)
        #expect(page.tweets == Self.tweets)
        #expect(page.newestId == 7)
        #expect(page.oldestId == 2)
        #expect(page.tweets[2].entities.mentions.first?.username == "bob", "as the account spells it")
        let empty = try Self.decode(API.Tweets.TweetPage.self, FeedPage([], json: TweetJSONCache()).json)
        #expect(empty.tweets.isEmpty && empty.newestId == nil && empty.oldestId == nil)
    }

    @Test func aMissingMemberIsNullNotAbsent() throws {
        let session = String(
            decoding: try ResultEncoder.encode(API.Auth.Session(token: "tws_x", expiresAt: nil)), as: UTF8.self)
        #expect(session == #"{"expiresAt":null,"token":"tws_x"}"#)
        let token = API.Tokens.TokenSummary(
            id: 1, name: "ci", createdAt: Date(timeIntervalSince1970: 0), expiresAt: nil, lastUsedAt: nil)
        let json = try JSONParser().parse(try ResultEncoder.encode([token]))
        #expect(json[0]?["expiresAt"] == .null)
        #expect(json[0]?["lastUsedAt"] == .null)
    }

    @Test func profileAnswersDecodeAsTheViewTheyAre() throws {
        let own = Profile(
            username: "alice", email: "alice@example.com", firstName: "Alice", lastName: "Liddell", age: nil,
            bio: "", version: 3, updatedAt: Date(timeIntervalSince1970: 1_780_000_000))
        let ownJSON = try ResultEncoder.encode(API.Profiles.ProfileResult.own(own))
        #expect(try JSONParser().parse(ownJSON)["age"] == .null, "age is present, null until set")
        #expect(try Self.decode(API.Profiles.ProfileResult.self, ownJSON) == .own(own))
        let other = try ResultEncoder.encode(API.Profiles.ProfileResult.other(own.publicProfile))
        #expect(try JSONParser().parse(other)["email"] == nil, "another user's view has no e-mail")
        #expect(try Self.decode(API.Profiles.ProfileResult.self, other) == .other(own.publicProfile))
    }
}
