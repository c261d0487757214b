import Foundation
import JSONRPC
import TestSupport
import Testing

/// toot and Mastodon.py, unchanged, against a real daemon's Mastodon client API: every step the issue names, each
/// client a separate process. `make test` builds the clients' environment and runs these on SQLite and PostgreSQL.
@Suite(
    .serialized,
    .enabled(
        if: MastodonClients.requested,
        "TWITTERD_TEST_MASTODON_CLIENTS is unset: `make test` installs the clients and sets it"))
struct MastodonClientTests {
    @Test func tootLogsInPostsAndReads() async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let bob = try await world.signUp("bob")
        for person in [alice, bob] {
            let login = try world.toot(person, ["login_cli", "-i", world.base, "-e", person.email])
            #expect(login.status == 0 && login.output.contains("Successfully logged in"), "\(login)")
        }

        let posted = try world.toot(alice, ["post", "hello from toot #tootproof"])
        #expect(posted.status == 0 && posted.output.hasPrefix("Toot posted: "), "\(posted)")
        let second = try world.toot(alice, ["post", "--json", "a second toot"])
        let rootID = try #require(try JSONParser().parse(second.output).string("id"), "\(second)")

        let follow = try world.toot(bob, ["follow", "alice"])
        #expect(follow.status == 0 && follow.output.contains("You are now following alice"), "\(follow)")
        let timeline = try world.toot(bob, ["timeline"])
        #expect(timeline.status == 0, "\(timeline)")
        #expect(timeline.output.contains("hello from toot") && timeline.output.contains("a second toot"))

        let reply = try world.toot(bob, ["post", "--reply-to", rootID, "@alice a reply from toot"])
        #expect(reply.status == 0, "\(reply)")
        let thread = try world.toot(alice, ["thread", rootID])
        #expect(thread.status == 0, "\(thread)")
        #expect(thread.output.contains("a second toot") && thread.output.contains("a reply from toot"))

        let notifications = try world.toot(alice, ["notifications"])
        #expect(notifications.status == 0, "\(notifications)")
        #expect(notifications.output.contains("bob") && notifications.output.contains("a reply from toot"))
        #expect(!notifications.error.contains("Unknown notification type"), "\(notifications.error)")

        let whois = try world.toot(bob, ["whois", "alice"])
        #expect(whois.status == 0 && whois.output.contains("@alice"), "\(whois)")
        let search = try world.toot(bob, ["search", "tootproof"])
        #expect(search.status == 0 && search.output.contains("tootproof"), "\(search)")
        let people = try world.toot(bob, ["search", "alice"])
        #expect(people.status == 0 && people.output.contains("@alice"), "\(people)")

        #expect(try world.toot(bob, ["lists", "create", "friends"]).status == 0)
        let added = try world.toot(bob, ["lists", "add", "friends", "alice"])
        #expect(added.status == 0, "\(added)")
        let lists = try world.toot(bob, ["lists", "list"])
        #expect(lists.status == 0 && lists.output.contains("friends"), "\(lists)")
        let members = try world.toot(bob, ["lists", "accounts", "friends"])
        #expect(members.status == 0 && members.output.contains("alice"), "\(members)")
        let listTimeline = try world.toot(bob, ["timeline", "--list", "friends"])
        #expect(listTimeline.status == 0 && listTimeline.output.contains("a second toot"), "\(listTimeline)")
        _ = world.daemon.stop()
    }

    @Test func mastodonPyPostsPagesAndInteracts() async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let bob = try await world.signUp("bob")
        let aliceLogin = try world.mastodonPyLogin(alice)
        let bobLogin = try world.mastodonPyLogin(bob)
        #expect(aliceLogin.answer["acct"] == "alice")
        let version = try #require(aliceLogin.answer.string("version"))
        #expect(version.hasPrefix("4.3.0 (compatible; twitterd "), "\(version)")

        #expect(try world.mastodonPy(bobLogin, "follow", [aliceLogin.accountID])["following"] == true)
        var posted: [String] = []
        for number in 1...5 {
            let status = try world.mastodonPy(aliceLogin, "post", ["post number \(number) #mpyproof"])
            posted.append(try #require(status.string("id")))
        }
        // The same idempotency key twice: one status, and both answers name it.
        let keyed = try world.mastodonPy(bobLogin, "post", ["@alice once only", posted[0], "reply-key-1"])
        #expect(keyed.string("id") == keyed.string("again"))
        #expect(keyed.string("in_reply_to_id") == posted[0])
        #expect(keyed["content"].map { "\($0)".contains("once only") } == true)

        // fetch_next pages the home timeline to its end: every status once, two a page, the newest first.
        let home = try world.mastodonPy(bobLogin, "pages", ["home", "2"])
        let homeIDs = home["ids"]?.strings() ?? []
        #expect(homeIDs == [keyed.string("id") ?? "-"] + posted.reversed(), "\(home)")
        #expect(home["sizes"] == [2, 2, 2], "\(home)")

        let interaction = try world.mastodonPy(bobLogin, "interact", [posted[2]])
        #expect(interaction["favourited"] == true && interaction["reblogged"] == true)
        #expect(interaction["bookmarked"] == true && interaction["reblog_of"] == .string(posted[2]))
        #expect(interaction["favourites_count"] == 1 && interaction["reblogs_count"] == 1)
        #expect(
            interaction["bookmarks"]?.strings() == [posted[2]] && interaction["favourites"]?.strings() == [posted[2]])

        let relations = try world.mastodonPy(bobLogin, "relationships", [aliceLogin.accountID])
        #expect(relations[0]?["id"] == .string(aliceLogin.accountID))
        #expect(relations[0]?["following"] == true && relations[0]?["blocking"] == false)
        let reverse = try world.mastodonPy(aliceLogin, "relationships", [bobLogin.accountID])
        #expect(reverse[0]?["followed_by"] == true && reverse[0]?["following"] == false)

        let lists = try world.mastodonPy(bobLogin, "lists", [aliceLogin.accountID])
        #expect(lists["members"]?.strings() == ["alice"] && lists["titles"]?.strings() == ["close friends"])
        #expect(lists["timeline"]?.strings().contains("alice") == true, "\(lists)")
        #expect(lists["after"]?.strings() == [] && lists["left"]?.strings() == [])

        let found = try world.mastodonPy(bobLogin, "search", ["alice"])
        #expect(found["accounts"]?.strings().contains("alice") == true, "\(found)")
        let tagged = try world.mastodonPy(bobLogin, "search", ["#mpyproof"])
        #expect(tagged["hashtags"]?.strings().contains("mpyproof") == true, "\(tagged)")

        let notified = try world.mastodonPy(aliceLogin, "notifications")
        let types = Set(notified["types"]?.strings() ?? [])
        #expect(types.isSuperset(of: ["follow", "mention", "favourite", "reblog"]), "\(notified)")
        #expect(Set(notified["mentions"]?.strings() ?? []) == ["mention"], "\(notified)")
        #expect(notified["no_follows"]?.strings().contains("follow") == false, "\(notified)")
        #expect(notified["one"] != nil && notified["one"] != .null, "\(notified)")
        let dismissed = notified["dismissed"]?.strings() ?? []
        let afterDismiss = notified["after_dismiss"]?.strings() ?? []
        #expect(dismissed.count == 1 && !afterDismiss.isEmpty, "\(notified)")
        #expect(!afterDismiss.contains(dismissed.first ?? ""), "the dismissed one is gone: \(notified)")
        #expect(notified["after_clear"]?.strings() == [], "\(notified)")
        _ = world.daemon.stop()
    }

    @Test func directStatusesAreConversations() async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let bob = try await world.signUp("bob", messagesFromEveryone: true)
        let aliceLogin = try world.mastodonPyLogin(alice)
        let bobLogin = try world.mastodonPyLogin(bob)

        let direct = try world.mastodonPy(aliceLogin, "post", ["@bob meet at noon", "", "", "direct"])
        #expect(direct.string("visibility") == "direct", "\(direct)")
        let conversations = try world.mastodonPy(bobLogin, "conversations")
        #expect(conversations[0]?["accounts"]?.strings().contains("alice") == true, "\(conversations)")
        #expect(conversations[0]?["last"].map { "\($0)".contains("meet at noon") } == true, "\(conversations)")
        // Never in a public view: a message is not a tweet.
        try await world.rpc(alice, "tweets.post", ["text": "a public tweet"])
        let publicView = try world.mastodonPy(bobLogin, "pages", ["public", "20"])
        let contents = publicView["contents"]?.strings() ?? []
        #expect(contents.contains { $0.contains("a public tweet") }, "\(publicView)")
        #expect(!contents.contains { $0.contains("meet at noon") }, "\(publicView)")
        _ = world.daemon.stop()
    }

    /// A post made over JSON-RPC reaches a Mastodon.py stream of a follower, over SSE and over the WebSocket.
    @Test(arguments: ["sse", "ws"]) func streamUserReceivesAPostMadeOverJSONRPC(transport: String) async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let bob = try await world.signUp("bob")
        let bobLogin = try world.mastodonPyLogin(bob)
        try await world.rpc(bob, "users.follow", ["username": "alice"])

        let stream = try world.clients.startMastodonPy(
            "stream", [transport, "live over \(transport)"], base: world.base, token: bobLogin.token)
        #expect(stream.readLine() == #"{"ready": true}"#)
        try await world.rpc(alice, "tweets.post", ["text": .string("live over \(transport)")])
        let line = try #require(stream.readLine())
        let event = try JSONParser().parse(line)
        #expect(event["event"] == "update" && event["acct"] == "alice", "\(line)")
        #expect(event["content"].map { "\($0)".contains("live over \(transport)") } == true, "\(line)")
        #expect(stream.waitForExit() == 0)
        _ = world.daemon.stop()
    }
}
