import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import MastodonAPI

/// The endpoints over the real request layer (in-memory SQLite): what a Mastodon client asks, answered through the
/// daemon's own methods, as the caller's account.
struct EndpointTests {
    @Test func postReadAndPageTheHomeTimelineToItsEnd() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        var ids: [String] = []
        for text in ["one", "two", "three"] {
            let status = try await alice.json("POST", "/api/v1/statuses", ["status": [text]])
            guard case .string(let id)? = status["id"] else { throw MastodonRouteMatch.NoRoute(description: "no id") }
            ids.append(id)
        }
        // The same Idempotency-Key answers the first status again.
        let first = try await alice.json("POST", "/api/v1/statuses", ["status": ["four"]], idempotencyKey: "k1")
        let again = try await alice.json("POST", "/api/v1/statuses", ["status": ["four"]], idempotencyKey: "k1")
        #expect(first["id"] == again["id"])

        var seen: [JSONValue] = []
        var params: [String: [String]] = ["limit": ["2"]]
        var pages = 0
        while pages < 10 {
            pages += 1
            let response = try await alice.request("GET", "/api/v1/timelines/home", params)
            guard case .array(let statuses) = try Fixtures.parse(response.body) else {
                Issue.record("not an array")
                return
            }
            seen += statuses.compactMap { $0["content"] }
            guard let link = response.headers.first(where: { $0.name == "Link" })?.value,
                link.hasPrefix("<"), let range = link.range(of: #">; rel="next""#),
                let maxID = link[..<range.lowerBound].split(separator: "max_id=").last
            else { break }
            #expect(link.hasPrefix("<http://127.0.0.1:3000/api/v1/timelines/home?limit=2&max_id="))
            params["max_id"] = [String(maxID)]
        }
        #expect(seen == ["<p>four</p>", "<p>three</p>", "<p>two</p>", "<p>one</p>"])
        #expect(pages == 3)

        let one = try await alice.json("GET", "/api/v1/statuses/\(ids[0])")
        #expect(one["content"] == "<p>one</p>")
        #expect(one["account"]?["acct"] == "alice")
    }

    @Test func accountsRelationshipsAndMarks() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        let me = try await alice.json("GET", "/api/v1/accounts/verify_credentials")
        #expect(me["username"] == "alice")
        #expect(me["source"]?["privacy"] == "public")

        let relationship = try await alice.json("POST", "/api/v1/accounts/bob/follow")
        #expect(relationship["id"] == "bob")
        #expect(relationship["following"] == true)
        let relationships = try await bob.json("GET", "/api/v1/accounts/relationships", ["id": ["alice", "nobody"]])
        #expect(relationships[0]?["followed_by"] == true)
        #expect(relationships[1] == Optional<JSONValue>.none)

        let looked = try await alice.json("GET", "/api/v1/accounts/lookup", ["acct": ["@bob@127.0.0.1:3000"]])
        #expect(looked["followers_count"] == 1)
        #expect(looked["created_at"] != .null)

        let post = try await bob.json("POST", "/api/v1/statuses", ["status": ["hello @alice #tea"]])
        let id = try #require(post["id"].flatMap { if case .string(let id) = $0 { id } else { nil } })
        #expect(post["mentions"]?[0]?["acct"] == "alice")
        #expect(post["tags"]?[0]?["name"] == "tea")
        #expect(try await alice.json("POST", "/api/v1/statuses/\(id)/favourite")["favourited"] == true)
        #expect(try await alice.json("POST", "/api/v1/statuses/\(id)/bookmark")["bookmarked"] == true)
        let reblog = try await alice.json("POST", "/api/v1/statuses/\(id)/reblog")
        #expect(reblog["reblog"]?["id"] == .string(id))
        #expect(reblog["reblog"]?["favourites_count"] == 1)
        let bookmarks = try await alice.json("GET", "/api/v1/bookmarks")
        #expect(bookmarks[0]?["id"] == .string(id))
        let favourites = try await alice.json("GET", "/api/v1/favourites")
        #expect(favourites[0]?["id"] == .string(id))
        #expect(try await bob.json("GET", "/api/v1/favourites") == [])
        let likers = try await bob.json("GET", "/api/v1/statuses/\(id)/favourited_by")
        #expect(likers[0]?["acct"] == "alice")
        let reposters = try await bob.json("GET", "/api/v1/statuses/\(id)/reblogged_by")
        #expect(reposters[0]?["acct"] == "alice")

        let reply = try await alice.json(
            "POST", "/api/v1/statuses", ["status": ["@bob yes"], "in_reply_to_id": [id]])
        #expect(reply["in_reply_to_id"] == .string(id))
        let context = try await bob.json("GET", "/api/v1/statuses/\(id)/context")
        #expect(context["ancestors"] == [])
        #expect(context["descendants"]?[0]?["id"] == reply["id"])

        let notifications = try await bob.json("GET", "/api/v1/notifications", ["types": ["favourite", "follow"]])
        guard case .array(let items) = notifications else {
            Issue.record("not an array")
            return
        }
        #expect(Set(items.compactMap { $0["type"] }) == ["favourite", "follow"])
        let mentions = try await bob.json(
            "GET", "/api/v1/notifications", ["exclude_types": ["favourite", "follow", "reblog"]])
        #expect(mentions[0]?["type"] == "mention")
        #expect(mentions[0]?["status"]?["id"] == reply["id"])

        // The marker: nothing read, then read up to the mention, as Mastodon's notifications marker.
        #expect(
            try await bob.json("GET", "/api/v1/markers", ["timeline": ["notifications"]])["notifications"]?[
                "last_read_id"] == "0")
        let mentionID = try #require(mentions[0]?["id"].flatMap { if case .string(let id) = $0 { id } else { nil } })
        _ = try await bob.json("POST", "/api/v1/markers", ["notifications[last_read_id]": [mentionID]])
        let marker = try await bob.json("GET", "/api/v1/markers", ["timeline": ["notifications", "home"]])
        #expect(marker["notifications"]?["last_read_id"] == .string(mentionID))
        #expect(try await bob.json("GET", "/api/v1/markers", ["timeline": ["home"]]) == [:])
        #expect(try await bob.json("GET", "/api/v1/notifications/\(mentionID)")["type"] == "mention")
        await #expect(throws: MastodonError.notFound()) {
            try await alice.request("GET", "/api/v1/notifications/\(mentionID)")
        }
        // Dismissed by its recipient only; a clear empties the list.
        await #expect(throws: RPCError.self) {
            try await alice.request("POST", "/api/v1/notifications/\(mentionID)/dismiss")
        }
        _ = try await bob.request("POST", "/api/v1/notifications/\(mentionID)/dismiss")
        await #expect(throws: MastodonError.notFound()) {
            try await bob.request("GET", "/api/v1/notifications/\(mentionID)")
        }
        #expect(try await bob.json("GET", "/api/v1/notifications") != [])
        _ = try await bob.request("POST", "/api/v1/notifications/clear")
        #expect(try await bob.json("GET", "/api/v1/notifications") == [])

        let found = try await alice.json("GET", "/api/v2/search", ["q": ["bob"], "type": ["accounts"]])
        #expect(found["accounts"]?[0]?["acct"] == "bob")
        #expect(found["accounts"]?[0]?["created_at"] != .null)
        #expect(found["statuses"] == [])
    }

    @Test func aDirectStatusIsAConversationOnlyItsPeopleSee() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        let carol = try await layer.signUp("carol")
        // bob lets only the people he follows write to him: alice first needs his follow.
        _ = try await bob.json("POST", "/api/v1/accounts/alice/follow")
        let sent = try await alice.json(
            "POST", "/api/v1/statuses", ["status": ["@bob secret"], "visibility": ["direct"]])
        #expect(sent["visibility"] == "direct")

        let bobs = try await bob.json("GET", "/api/v1/conversations")
        #expect(bobs[0]?["last_status"]?["content"] == "<p>@bob secret</p>")
        #expect(bobs[0]?["accounts"]?[0]?["acct"] == "alice")
        #expect(try await carol.json("GET", "/api/v1/conversations") == [])
        // Never a tweet: no public view holds it.
        #expect(try await carol.json("GET", "/api/v1/timelines/public") == [])
        #expect(try await bob.json("GET", "/api/v1/timelines/home") == [])

        // carol is not followed by bob: his messagesFrom refuses her, in the layer.
        await #expect(throws: RPCError.self) {
            try await carol.request("POST", "/api/v1/statuses", ["status": ["@bob hi"], "visibility": ["direct"]])
        }
        await #expect(throws: MastodonError.unprocessable("A direct status must mention the accounts it is for")) {
            try await carol.request("POST", "/api/v1/statuses", ["status": ["nobody"], "visibility": ["direct"]])
        }
        await #expect(throws: MastodonError.self) {
            try await carol.request("POST", "/api/v1/statuses", ["status": ["x"], "visibility": ["private"]])
        }
    }

    @Test func aBlockHidesStatusesAndAnotherAccountsListIsRefused() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        let post = try await bob.json("POST", "/api/v1/statuses", ["status": ["mine"]])
        let id = try #require(post["id"].flatMap { if case .string(let id) = $0 { id } else { nil } })
        _ = try await bob.json("POST", "/api/v1/accounts/alice/block")
        await #expect(throws: RPCError.self) { try await alice.request("GET", "/api/v1/statuses/\(id)") }
        let page = try? await alice.json("GET", "/api/v1/accounts/bob/statuses")
        #expect(page == nil || page == [])
        #expect(try await alice.json("GET", "/api/v1/timelines/public") == [])

        let list = try await alice.json("POST", "/api/v1/lists", ["title": ["mine"]])
        #expect(list["title"] == "mine")
        let listID = try #require(list["id"].flatMap { if case .string(let id) = $0 { id } else { nil } })
        let lists = try await alice.json("GET", "/api/v1/lists")
        #expect(lists[0]?["id"] == .string(listID))
        // bob may neither change alice's list nor read its members' timeline as his.
        await #expect(throws: RPCError.self) {
            try await bob.request("POST", "/api/v1/lists/\(listID)/accounts", ["account_ids": ["bob"]])
        }
        await #expect(throws: RPCError.self) { try await bob.request("DELETE", "/api/v1/lists/\(listID)") }
        #expect(try await alice.json("DELETE", "/api/v1/lists/\(listID)") == [:])
        await #expect(throws: MastodonError.notFound()) { try await alice.request("GET", "/api/v1/lists/abc") }
    }

    @Test func listsTheirAccountsAndTheirTimeline() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        _ = try await bob.json("POST", "/api/v1/statuses", ["status": ["from bob"]])
        let list = try await alice.json("POST", "/api/v1/lists", ["title": ["friends"]])
        let listID = try #require(list["id"].flatMap { if case .string(let id) = $0 { id } else { nil } })
        #expect(
            try await alice.json("POST", "/api/v1/lists/\(listID)/accounts", ["account_ids": ["bob"]]) == [:])
        #expect(try await alice.json("GET", "/api/v1/lists/\(listID)/accounts")[0]?["acct"] == "bob")
        #expect(try await alice.json("GET", "/api/v1/timelines/list/\(listID)")[0]?["content"] == "<p>from bob</p>")
        let renamed = try await alice.json("PUT", "/api/v1/lists/\(listID)", ["title": ["pals"]])
        #expect(renamed["title"] == "pals")
        #expect(
            try await alice.json("DELETE", "/api/v1/lists/\(listID)/accounts", ["account_ids": ["bob"]]) == [:])
        #expect(try await alice.json("GET", "/api/v1/lists/\(listID)/accounts") == [])
    }

    @Test func instanceAndTheEmptyOnes() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let v1 = try await alice.json("GET", "/api/v1/instance")
        #expect(v1["urls"]?["streaming_api"] == "ws://127.0.0.1:3000")
        let v2 = try await alice.json("GET", "/api/v2/instance")
        #expect(v2["api_versions"]?["mastodon"] == 2)
        #expect(try await alice.json("GET", "/api/v1/filters") == [])
        #expect(try await alice.json("GET", "/api/v2/filters") == [])
        #expect(try await alice.json("GET", "/api/v1/custom_emojis") == [])
        #expect(try await alice.json("GET", "/api/v1/preferences")["posting:default:visibility"] == "public")
    }
}
