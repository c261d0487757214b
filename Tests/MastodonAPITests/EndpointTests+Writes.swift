import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import MastodonAPI

/// The writes that answer with what they changed: the account, a status deleted, unreblogged, pinned.
extension EndpointTests {
    @Test func credentialsPinsDeletesAndTheAccountsStatuses() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        let updated = try await alice.json(
            "PATCH", "/api/v1/accounts/update_credentials", ["display_name": ["Alice Liddell"], "note": ["a <b>"]])
        #expect(updated["display_name"] == "Alice Liddell")
        #expect(updated["note"] == "<p>a &lt;b&gt;</p>")
        #expect(updated["source"]?["note"] == "a <b>")

        let bobs = try await bob.json("POST", "/api/v1/statuses", ["status": ["#garden news"]])
        let bobsID = try #require(Self.id(bobs))
        let mine = try await alice.json("POST", "/api/v1/statuses", ["status": ["mine"]])
        let mineID = try #require(Self.id(mine))
        _ = try await alice.json("POST", "/api/v1/statuses/\(bobsID)/reblog")
        let statuses = try await alice.json("GET", "/api/v1/accounts/alice/statuses")
        #expect(statuses[0]?["reblog"]?["id"] == .string(bobsID))
        #expect(statuses[1]?["id"] == .string(mineID))
        let originals = try await alice.json(
            "GET", "/api/v1/accounts/alice/statuses", ["exclude_reblogs": ["True"]])
        #expect(originals[0]?["id"] == .string(mineID) && originals[1] == Optional<JSONValue>.none)
        let unreblogged = try await alice.json("POST", "/api/v1/statuses/\(bobsID)/unreblog")
        #expect(unreblogged["reblogged"] == false)
        #expect(unreblogged["reblogs_count"] == 0)

        #expect(try await alice.json("POST", "/api/v1/statuses/\(mineID)/pin")["pinned"] == true)
        let pinned = try await bob.json("GET", "/api/v1/accounts/alice/statuses", ["pinned": ["true"]])
        #expect(pinned[0]?["id"] == .string(mineID))
        // Unpinning another status leaves the pinned one pinned.
        _ = try await alice.json("POST", "/api/v1/statuses/\(bobsID)/unpin")
        #expect(try await alice.account("alice").pinnedTweet?.id == Int64(mineID))
        _ = try await alice.json("POST", "/api/v1/statuses/\(mineID)/unpin")
        #expect(try await alice.account("alice").pinnedTweet == nil)

        // bob may not delete alice's status; alice may, and the answer is it with its text.
        await #expect(throws: RPCError.self) { try await bob.request("DELETE", "/api/v1/statuses/\(mineID)") }
        let deleted = try await alice.json("DELETE", "/api/v1/statuses/\(mineID)")
        #expect(deleted["text"] == "mine")
        await #expect(throws: RPCError.self) { try await alice.request("GET", "/api/v1/statuses/\(mineID)") }

        let found = try await alice.json("GET", "/api/v2/search", ["q": ["#garden"]])
        #expect(found["hashtags"]?[0]?["name"] == "garden")
        #expect(found["statuses"]?[0]?["id"] == .string(bobsID))
        let trends = try await alice.json("GET", "/api/v1/trends/tags")
        #expect(trends[0]?["name"] == "garden")
        #expect(try await alice.json("GET", "/api/v1/timelines/tag/garden")[0]?["id"] == .string(bobsID))
    }

    @Test func aConversationIsReadAndOthersAreNotFound() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        let carol = try await layer.signUp("carol")
        _ = try await bob.json("POST", "/api/v1/accounts/alice/follow")
        _ = try await alice.json("POST", "/api/v1/statuses", ["status": ["@bob psst"], "visibility": ["direct"]])
        let conversation = try await bob.json("GET", "/api/v1/conversations")
        #expect(conversation[0]?["unread"] == true)
        let first = try #require(conversation[0])
        let id = try #require(Self.id(first))
        #expect(try await bob.json("POST", "/api/v1/conversations/\(id)/read")["unread"] == false)
        await #expect(throws: RPCError.self) { try await carol.request("POST", "/api/v1/conversations/\(id)/read") }
    }

    static func id(_ entity: JSONValue) -> String? {
        if case .string(let id)? = entity["id"] { return id }
        return nil
    }

    /// Our search pages by cursor; Mastodon.py pages `/api/v2/search` by `offset`, past our largest page too.
    @Test func searchPagesByOffsetPastTheLargestPage() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        var posted: Set<String> = []
        for number in 0..<105 {
            let status = try await alice.json("POST", "/api/v1/statuses", ["status": ["needle \(number)"]])
            if case .string(let id)? = status["id"] { posted.insert(id) }
        }
        #expect(posted.count == 105)
        var seen: [String] = []
        while true {
            let found = try await alice.json(
                "GET", "/api/v2/search",
                ["q": ["needle"], "type": ["statuses"], "limit": ["40"], "offset": [String(seen.count)]])
            guard case .array(let statuses)? = found["statuses"] else {
                Issue.record("no statuses in \(found)")
                return
            }
            if statuses.isEmpty { break }
            seen += statuses.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }
            #expect(seen.count <= 105, "the pages end")
            if seen.count > 105 { break }
        }
        #expect(seen.count == 105 && Set(seen) == posted, "every status once, in pages of 40 by offset")
        let past = try await alice.json(
            "GET", "/api/v2/search", ["q": ["needle"], "type": ["statuses"], "offset": ["1001"]])
        #expect(past["statuses"] == [], "past the largest offset served, a page is empty")
    }
}
