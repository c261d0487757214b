import Foundation
import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import MastodonAPI

/// Each entity against JSON written by hand from Mastodon's documentation, every documented field present.
struct EntityTests {
    static let origin = "http://127.0.0.1:3000"

    static let aliceAccount = """
        {"id":"alice","username":"alice","acct":"alice","url":"http://127.0.0.1:3000/@alice",
         "uri":"http://127.0.0.1:3000/users/alice","display_name":"alice","note":"",
         "avatar":"http://127.0.0.1:3000/avatars/original/missing.png",
         "avatar_static":"http://127.0.0.1:3000/avatars/original/missing.png",
         "header":"http://127.0.0.1:3000/headers/original/missing.png",
         "header_static":"http://127.0.0.1:3000/headers/original/missing.png",
         "locked":false,"fields":[],"emojis":[],"bot":false,"group":false,"discoverable":true,"indexable":false,
         "noindex":false,"hide_collections":false,"memorial":false,"roles":[],"created_at":null,
         "last_status_at":null,"statuses_count":0,"followers_count":0,"following_count":0}
        """

    @Test func statusOfATweet() throws {
        var bytes: [UInt8] = []
        MastodonStatus.write(Fixtures.tweet, origin: Self.origin, into: &bytes)
        let expected = """
            {"id":"42","uri":"http://127.0.0.1:3000/@alice/42","url":"http://127.0.0.1:3000/@alice/42",
             "created_at":"2026-09-21T14:13:20.000Z","account":\(Self.aliceAccount),
             "content":"<p>hi <span class=\\"h-card\\" translate=\\"no\\"><a href=\\"http://127.0.0.1:3000/@bob\\" class=\\"u-url mention\\">@<span>bob</span></a></span> &lt;script&gt;x&lt;/script&gt; <a href=\\"http://127.0.0.1:3000/tags/swift\\" class=\\"mention hashtag\\" rel=\\"tag\\">#<span>Swift</span></a> <a href=\\"https://example.com/a?b=1&amp;c=2\\" target=\\"_blank\\" rel=\\"nofollow noopener\\" translate=\\"no\\"><span class=\\"invisible\\">https://</span><span class=\\"\\">example.com/a?b=1&amp;c=2</span></a><br>line2</p><p>end</p>",
             "visibility":"public","sensitive":false,"spoiler_text":"","media_attachments":[],"application":null,
             "mentions":[{"id":"bob","username":"bob","url":"http://127.0.0.1:3000/@bob","acct":"bob"}],
             "tags":[{"name":"swift","url":"http://127.0.0.1:3000/tags/swift"}],"emojis":[],
             "reblogs_count":2,"favourites_count":3,"replies_count":1,"quotes_count":0,
             "in_reply_to_id":"41","in_reply_to_account_id":null,"reblog":null,"quote":null,"poll":null,
             "card":null,"language":null,"text":null,"edited_at":null,"favourited":true,"reblogged":false,
             "muted":false,"bookmarked":true,"pinned":false,"filtered":[]}
            """
        #expect(try Fixtures.parse(bytes) == Fixtures.parse(expected))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("scheduled_at"))
    }

    @Test func aRepostIsAReblogWithEmptyContent() throws {
        let original = Tweet(
            id: 5, author: AccountName(id: 2, username: "bob"), text: "first", createdAt: Fixtures.date)
        let repost = Tweet(
            id: 6, author: AccountName(id: 7, username: "alice"), text: "", createdAt: Fixtures.date,
            repostOf: original, repostedByMe: true)
        var bytes: [UInt8] = []
        MastodonStatus.write(repost, origin: Self.origin, into: &bytes)
        let status = try Fixtures.parse(bytes)
        #expect(status["id"] == .string("6"))
        #expect(status["content"] == .string(""))
        #expect(status["reblogged"] == .bool(true))
        #expect(status["reblog"]?["id"] == .string("5"))
        #expect(status["reblog"]?["content"] == .string("<p>first</p>"))
        #expect(status["reblog"]?["account"]?["acct"] == .string("bob"))
    }

    @Test func aQuoteCarriesTheQuotedStatusOrItsState() throws {
        let quoted = Tweet(id: 5, author: AccountName(id: 2, username: "bob"), text: "q", createdAt: Fixtures.date)
        var quote = Tweet(
            id: 6, author: AccountName(id: 7, username: "alice"), text: "look", createdAt: Fixtures.date,
            quoteOfID: 5)
        quote.quoted = .tweet(quoted)
        var bytes: [UInt8] = []
        MastodonStatus.write(quote, origin: Self.origin, into: &bytes)
        var status = try Fixtures.parse(bytes)
        #expect(status["quote"]?["state"] == .string("accepted"))
        #expect(status["quote"]?["quoted_status"]?["id"] == .string("5"))

        quote.quoted = .unavailable(id: 5)
        bytes = []
        MastodonStatus.write(quote, origin: Self.origin, into: &bytes)
        status = try Fixtures.parse(bytes)
        #expect(try status["quote"] == Fixtures.parse(#"{"state":"deleted","quoted_status":null}"#))
    }

    @Test func accountFromUsersGetWithCountsAndNote() throws {
        let overview = UserOverview(
            username: "bob", firstName: "Bob", lastName: "Stone", bio: "I <3 tea", createdAt: Fixtures.date,
            followersCount: 4, followingCount: 5, tweetsCount: 6, followedByMe: true, followsMe: false)
        var bytes: [UInt8] = []
        MastodonAccount(overview).write(origin: Self.origin, into: &bytes)
        let account = try Fixtures.parse(bytes)
        #expect(account["id"] == .string("bob"))
        #expect(account["acct"] == .string("bob"))
        #expect(account["display_name"] == .string("Bob Stone"))
        #expect(account["note"] == .string("<p>I &lt;3 tea</p>"))
        #expect(account["created_at"] == .string("2026-09-21T14:13:20.000Z"))
        #expect(account["followers_count"] == 4)
        #expect(account["following_count"] == 5)
        #expect(account["statuses_count"] == 6)
        #expect(account["source"] == Optional<JSONValue>.none)
    }

    @Test func accountOfATweetsAuthor() throws {
        var bytes: [UInt8] = []
        MastodonAccount(AccountName(id: 7, username: "alice")).write(origin: Self.origin, into: &bytes)
        #expect(try Fixtures.parse(bytes) == Fixtures.parse(Self.aliceAccount))
    }

    @Test func relationshipFromUsersGet() throws {
        let overview = UserOverview(
            username: "bob", firstName: "Bob", lastName: "Stone", bio: "", createdAt: Fixtures.date,
            followersCount: 0, followingCount: 0, tweetsCount: 0, followedByMe: true, followsMe: true,
            mutedByMe: false, blockedByMe: true)
        var bytes: [UInt8] = []
        MastodonRelationship.write(overview, into: &bytes)
        let expected = """
            {"id":"bob","following":true,"showing_reblogs":true,"notifying":false,"languages":[],
             "followed_by":true,"blocking":true,"blocked_by":false,"muting":false,"muting_notifications":false,
             "requested":false,"requested_by":false,"domain_blocking":false,"endorsed":false,"note":""}
            """
        #expect(try Fixtures.parse(bytes) == Fixtures.parse(expected))
    }

    @Test(arguments: [
        (ActivityNotification.Kind.mention, "mention"), (.reply, "mention"), (.follow, "follow"),
        (.like, "favourite"), (.repost, "reblog"), (.quote, "quote"),
    ])
    func notificationTypes(kind: ActivityNotification.Kind, type: String) {
        #expect(MastodonNotification.type(of: kind) == type)
    }

    @Test func mastodonTypesSelectOurKinds() {
        #expect(MastodonNotification.kinds(of: ["mention"]) == [.mention, .reply])
        #expect(MastodonNotification.kinds(of: ["favourite", "reblog"]) == [.like, .repost])
        #expect(MastodonNotification.kinds(of: ["poll", "follow_request"]).isEmpty)
    }

    @Test func notificationOfAFollowHasANullStatus() throws {
        let notification = ActivityNotification(
            id: 9, type: .follow, createdAt: Fixtures.date, from: .init(username: "bob"))
        var bytes: [UInt8] = []
        MastodonNotification.write(notification, origin: Self.origin, into: &bytes)
        let object = try Fixtures.parse(bytes)
        #expect(object["id"] == .string("9"))
        #expect(object["type"] == .string("follow"))
        #expect(object["created_at"] == .string("2026-09-21T14:13:20.000Z"))
        #expect(object["group_key"] == .string("ungrouped-9"))
        #expect(object["account"]?["acct"] == .string("bob"))
        #expect(object["status"] == .null)
        #expect(object["report"] == .null)
    }

    @Test func listTagAndConversation() throws {
        var bytes: [UInt8] = []
        MastodonList.write(
            UserList(
                id: 3, name: "friends", description: "", isPrivate: true, owner: AccountName(id: 1, username: "a"),
                membersCount: 2, createdAt: Fixtures.date), into: &bytes)
        #expect(
            try Fixtures.parse(bytes)
                == Fixtures.parse(#"{"id":"3","title":"friends","replies_policy":"list","exclusive":false}"#))

        bytes = []
        MastodonTag.write("Swift", origin: Self.origin, into: &bytes)
        #expect(
            try Fixtures.parse(bytes)
                == Fixtures.parse(
                    #"{"id":"swift","name":"swift","url":"http://127.0.0.1:3000/tags/swift","history":[],"following":false}"#
                ))

        let message = API.Messages.Message(
            id: 11, conversationId: 4, sender: AccountName(id: 2, username: "bob"), text: "psst <b>",
            createdAt: Fixtures.date)
        let conversation = API.Messages.Conversation(
            id: 4,
            participants: [.init(id: 1, username: "alice"), .init(id: 2, username: "bob")],
            lastMessage: message, unreadCount: 1, updatedAt: Fixtures.date)
        bytes = []
        MastodonConversation.write(conversation, caller: "alice", origin: Self.origin, into: &bytes)
        let object = try Fixtures.parse(bytes)
        #expect(object["id"] == .string("4"))
        #expect(object["unread"] == .bool(true))
        guard case .array(let accounts)? = object["accounts"] else {
            Issue.record("accounts is not an array")
            return
        }
        #expect(accounts.map { $0["acct"] } == [.string("bob")])
        #expect(object["last_status"]?["id"] == .string("11"))
        #expect(object["last_status"]?["visibility"] == .string("direct"))
        #expect(object["last_status"]?["content"] == .string("<p>psst &lt;b&gt;</p>"))
    }

    @Test func instanceV1AndV2() throws {
        let instance = MastodonInstance(origin: "http://127.0.0.1:3000", maximumCharacters: 140)
        var bytes: [UInt8] = []
        instance.writeV1(into: &bytes)
        let v1 = try Fixtures.parse(bytes)
        #expect(v1["uri"] == .string("127.0.0.1:3000"))
        #expect(v1["version"] == .string("4.3.0 (compatible; twitterd \(TwitterdVersion.current))"))
        #expect(v1["urls"] == .object(["streaming_api": .string("ws://127.0.0.1:3000")]))
        #expect(v1["configuration"]?["statuses"]?["max_characters"] == 140)
        #expect(v1["configuration"]?["statuses"]?["max_media_attachments"] == 0)
        #expect(v1["contact_account"] == .null)
        #expect(v1["rules"] == .array([]))

        bytes = []
        instance.writeV2(into: &bytes)
        let v2 = try Fixtures.parse(bytes)
        #expect(v2["domain"] == .string("127.0.0.1:3000"))
        #expect(v2["api_versions"] == .object(["mastodon": 2]))
        #expect(v2["configuration"]?["urls"]?["streaming"] == .string("ws://127.0.0.1:3000"))
        #expect(v2["configuration"]?["statuses"]?["max_characters"] == 140)
        #expect(v2["configuration"]?["media_attachments"]?["image_size_limit"] == 0)
        #expect(
            MastodonInstance(origin: "https://example.org", maximumCharacters: 1).streamingOrigin
                == "wss://example.org")
    }
}
