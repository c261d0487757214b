import Foundation
import JSONRPC
import TestSupport
import Testing

/// The Mastodon client API from the side of the one refused, with the real Mastodon.py: another account's token,
/// a revoked token (and its open stream), a read-only token writing, a block made over either transport, and a
/// request whose Host header is not this machine's.
@Suite(
    .serialized,
    .enabled(
        if: MastodonClients.requested,
        "TWITTERD_TEST_MASTODON_CLIENTS is unset: `make test` installs the clients and sets it"))
struct MastodonClientRefusalTests {
    @Test func anotherAccountsTokenCannotDeleteOrReadWhatIsNotItsOwn() async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let bob = try await world.signUp("bob", messagesFromEveryone: true)
        let carol = try await world.signUp("carol")
        let aliceLogin = try world.mastodonPyLogin(alice)
        let carolLogin = try world.mastodonPyLogin(carol)

        let status = try #require(try world.mastodonPy(aliceLogin, "post", ["mine to delete"]).string("id"))
        let deleting = try world.mastodonPy(carolLogin, "refused", ["delete", status])
        #expect(deleting["refused"] == true, "\(deleting)")
        #expect(deleting["status"] == 404 || deleting["status"] == 403, "\(deleting)")
        #expect(try world.mastodonPy(aliceLogin, "refused", ["status", status])["refused"] == false)

        // A direct status to bob: bob has the conversation, carol, who is not in it, has none.
        let direct = try world.mastodonPy(aliceLogin, "post", ["@bob for you only", "", "", "direct"])
        #expect(direct.string("visibility") == "direct", "\(direct)")
        let bobLogin = try world.mastodonPyLogin(bob)
        #expect(try world.mastodonPy(bobLogin, "conversations")[0]?["accounts"]?.strings() == ["alice"])
        let carols = try world.mastodonPy(carolLogin, "conversations")
        #expect(carols == [], "\(carols)")
        _ = world.daemon.stop()
    }

    /// Revoking a token through /oauth/revoke ends its open stream, and the token is refused from then on.
    @Test(arguments: ["sse", "ws"]) func aRevokedTokenEndsItsStream(transport: String) async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let login = try world.mastodonPyLogin(alice)
        let stream = try world.clients.startMastodonPy(
            "stream-until-end", [transport], base: world.base, token: login.token)
        #expect(stream.readLine() == #"{"ready": true}"#)

        let revoked = try world.mastodonPy(login, "revoke", [login.clientID, login.clientSecret])
        #expect(revoked["revoked"] == true)
        let ended = try JSONParser().parse(try #require(stream.readLine()))
        #expect(ended["ended"] == true, "\(ended)")
        #expect(ended["last"]?["event"] != "timeout", "\(ended)")

        let after = try world.mastodonPy(login, "raw", ["GET", "/api/v1/accounts/verify_credentials"])
        #expect(after["status"] == 401, "\(after)")
        withKnownIssue("an open endpoint refuses a revoked bearer (401) where Mastodon serves it anonymously") {
            // Mastodon.py asks /api/v1/instance/ for the version as it starts; refused, it recurses until Python
            // gives up, instead of raising MastodonUnauthorizedError (/work/notes/clients-findings.md, 1).
            let refused = try world.mastodonPy(login, "refused", ["me"])
            #expect(refused["refused"] == true && refused["status"] == 401, "\(refused)")
        }
        _ = world.daemon.stop()
    }

    @Test func aReadOnlyTokenReadsButCannotWrite() async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let reader = try world.mastodonPyLogin(alice, scopes: "read")
        #expect(try world.mastodonPy(reader, "refused", ["home"])["refused"] == false)
        let posting = try world.mastodonPy(reader, "refused", ["post", "not allowed"])
        #expect(posting["refused"] == true && posting["status"] == 403, "\(posting)")
        let status = try await world.rpc(alice, "tweets.post", ["text": "made over JSON-RPC"])
        let favouriting = try world.mastodonPy(reader, "refused", ["favourite", status.id() ?? "-"])
        #expect(favouriting["refused"] == true && favouriting["status"] == 403, "\(favouriting)")
        _ = world.daemon.stop()
    }

    /// A block made over HTTP holds over JSON-RPC, and one made over JSON-RPC holds over HTTP.
    @Test func aBlockHoldsAcrossBothTransports() async throws {
        let world = try await MastodonClientWorld()
        let alice = try await world.signUp("alice")
        let bob = try await world.signUp("bob")
        let carol = try await world.signUp("carol")
        let aliceLogin = try world.mastodonPyLogin(alice)
        let bobLogin = try world.mastodonPyLogin(bob)
        let carolLogin = try world.mastodonPyLogin(carol)

        // alice blocks bob over HTTP; bob is refused over JSON-RPC and over HTTP.
        let alicePost = try #require(try world.mastodonPy(aliceLogin, "post", ["alice's post"]).string("id"))
        #expect(try world.mastodonPy(aliceLogin, "block", [bobLogin.accountID])["blocking"] == true)
        #expect(try await world.rpcError(bob, "users.follow", ["username": "alice"])?.code == -32003)
        let rpcLike = try await world.rpcError(bob, "tweets.like", ["id": .number(JSONNumber(Int(alicePost) ?? 0))])
        #expect(rpcLike?.code == -32004)
        let httpFollow = try world.mastodonPy(bobLogin, "refused", ["follow", aliceLogin.accountID])
        #expect(httpFollow["refused"] == true, "\(httpFollow)")
        let httpReply = try world.mastodonPy(bobLogin, "refused", ["reply", alicePost])
        #expect(httpReply["refused"] == true, "\(httpReply)")

        // carol blocks bob over JSON-RPC; bob is refused over HTTP.
        let carolPost = try await world.rpc(carol, "tweets.post", ["text": "carol's post"])
        let carolPostID = try #require(carolPost.id())
        try await world.rpc(carol, "users.block", ["username": "bob"])
        let reading = try world.mastodonPy(bobLogin, "refused", ["status", carolPostID])
        #expect(reading["refused"] == true && reading["status"] == 404, "\(reading)")
        let favouriting = try world.mastodonPy(bobLogin, "refused", ["favourite", carolPostID])
        #expect(favouriting["refused"] == true, "\(favouriting)")
        let relation = try world.mastodonPy(carolLogin, "relationships", [bobLogin.accountID])
        #expect(relation[0]?["blocking"] == true, "\(relation)")
        _ = world.daemon.stop()
    }

    /// A page on another site that resolves its own name to 127.0.0.1 (DNS rebinding) sends its own Host: refused.
    @Test func aForeignHostHeaderIsRefused() async throws {
        let world = try await MastodonClientWorld()
        let port = world.base.split(separator: ":").last.map(String.init) ?? ""
        for host in ["localhost:\(port)", "127.0.0.1:\(port)", "localhost"] {
            let answer = try world.clients.mastodonPy("host", [host], base: world.base)
            #expect(answer["status"] == 200, "\(host): \(answer)")
        }
        for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example"] {
            let answer = try world.clients.mastodonPy("host", [host], base: world.base)
            guard case .number(let status)? = answer["status"], let code = status.int64 else {
                Issue.record("\(host): \(answer)")
                continue
            }
            #expect((400..<500).contains(code), "\(host): \(answer)")
        }
        _ = world.daemon.stop()
    }
}
