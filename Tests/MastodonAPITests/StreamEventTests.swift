import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import MastodonAPI

/// The layer's notification lines as Mastodon's streaming events.
struct StreamEventTests {
    static let origin = "http://127.0.0.1:3000"

    static func line(_ method: String, _ params: String) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#.utf8)
    }

    static let tweetJSON = """
        {"id":42,"author":{"id":7,"username":"alice"},"text":"#Swift rocks","createdAt":"2026-09-21T14:13:20.000Z",
         "entities":{"mentions":[],"hashtags":[{"tag":"Swift","start":0,"end":6}],"urls":[]},"inReplyToId":null,
         "likesCount":0,"repostsCount":0,"repliesCount":0,"likedByMe":false,"repostedByMe":false,
         "bookmarkedByMe":false,"repostOf":null,"quotesCount":0,"quoted":null}
        """

    @Test func aNewTweetIsAnUpdate() throws {
        let result = MastodonStreamEvents.translate(
            line: Self.line("tweets.new", #"{"subscription":3,"tweet":\#(Self.tweetJSON)}"#), stream: .user,
            caller: "bob", origin: Self.origin)
        guard case .event(let event) = result else {
            Issue.record("not an event: \(result)")
            return
        }
        #expect(event.subscription == 3)
        #expect(event.event == "update")
        let status = try Fixtures.parse(event.payload)
        #expect(status["id"] == "42")
        #expect(status["account"]?["acct"] == "alice")
    }

    @Test func aHashtagStreamCarriesOnlyItsTag() {
        let line = Self.line("tweets.new", #"{"subscription":3,"tweet":\#(Self.tweetJSON)}"#)
        let other = MastodonStreamEvents.translate(
            line: line, stream: .hashtag("rust"), caller: "bob", origin: Self.origin)
        #expect(other == .ignored)
        let same = MastodonStreamEvents.translate(
            line: line, stream: .hashtag("SWIFT"), caller: "bob", origin: Self.origin)
        if case .event(let event) = same {
            #expect(event.event == "update")
        } else {
            Issue.record("the tagged tweet was not sent: \(same)")
        }
    }

    @Test func aDeletedTweetIsADeleteOfItsIdAsAString() {
        let result = MastodonStreamEvents.translate(
            line: Self.line("tweets.deleted", #"{"subscription":3,"id":42}"#), stream: .everyone, caller: "bob",
            origin: Self.origin)
        #expect(
            result == .event(MastodonStreamEvent(subscription: 3, event: "delete", payload: Array(#""42""#.utf8))))
    }

    @Test func aNotificationAndAMessage() throws {
        let notification = MastodonStreamEvents.translate(
            line: Self.line(
                "notifications.new",
                #"{"subscription":4,"notification":{"id":9,"type":"like","createdAt":"2026-09-21T14:13:20.000Z","from":{"username":"alice"},"tweet":\#(Self.tweetJSON),"read":false}}"#
            ), stream: .user, caller: "bob", origin: Self.origin)
        guard case .event(let event) = notification else {
            Issue.record("not an event: \(notification)")
            return
        }
        #expect(event.event == "notification")
        let object = try Fixtures.parse(event.payload)
        #expect(object["type"] == "favourite")
        #expect(object["status"]?["id"] == "42")

        let message = MastodonStreamEvents.translate(
            line: Self.line(
                "messages.new",
                #"{"subscription":5,"message":{"id":11,"conversationId":4,"sender":{"id":7,"username":"alice"},"text":"psst","createdAt":"2026-09-21T14:13:20.000Z"}}"#
            ), stream: .direct, caller: "bob", origin: Self.origin)
        guard case .event(let conversation) = message else {
            Issue.record("not an event: \(message)")
            return
        }
        #expect(conversation.event == "conversation")
        let payload = try Fixtures.parse(conversation.payload)
        #expect(payload["id"] == "4")
        #expect(payload["unread"] == true)
        #expect(payload["last_status"]?["visibility"] == "direct")
        #expect(payload["accounts"]?[0]?["acct"] == "alice")
    }

    @Test func laggingEndsTheStreamAndOtherLinesAreIgnored() {
        #expect(
            MastodonStreamEvents.translate(
                line: Self.line("tweets.lagged", #"{"subscription":3,"resumeFrom":40}"#), stream: .user,
                caller: "bob", origin: Self.origin) == .lagged(subscription: 3))
        #expect(
            MastodonStreamEvents.translate(
                line: Self.line("auth.revoked", #"{"reason":"x","message":"y"}"#), stream: .user, caller: "bob",
                origin: Self.origin) == .ignored)
        #expect(
            MastodonStreamEvents.translate(line: Array("not json".utf8), stream: .user, caller: "b", origin: "o")
                == .ignored)
    }

    @Test func streamNames() {
        #expect(MastodonStream(name: "user") == .user)
        #expect(MastodonStream(name: "public:local") == .everyone)
        #expect(MastodonStream(name: "hashtag", tag: "#Swift") == .hashtag("Swift"))
        #expect(MastodonStream(name: "hashtag") == nil)
        #expect(MastodonStream(name: "list", list: "5") == .list(5))
        #expect(MastodonStream(name: "list", list: "x") == nil)
        #expect(MastodonStream(name: "public:remote") == nil)
        #expect(MastodonStream.list(5).names == ["list", "5"])
    }
}
