import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `web.*`: what the public pages read, as nobody, without a login; and `profile.update {webVisible}`, which
/// takes an account and its tweets off them.
struct WebRouteTests: RouteTesting {
    static let routes = [API.Web.user.name, API.Web.timeline.name, API.Web.thread.name]

    @Test func nobodyReadsAProfileItsTweetsATagAndEveryonesWithoutALogin() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let first = try await alice.call(API.Tweets.post, .init(text: "first #swift"))
        _ = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        _ = try await alice.call(API.Tweets.like, .init(id: first.id))
        _ = try await alice.call(API.Profiles.pin, .init(id: first.id))
        let nobody = try await daemon.connect()
        let user = try await nobody.call(API.Web.user, .init(username: "ALICE"))
        #expect(user.username == "alice" && user.tweetsCount == 1 && user.followedByMe == false)
        #expect(user.pinnedTweet?.id == first.id && user.pinnedTweet?.likedByMe == false, "nobody's marks")
        #expect(try await nobody.call(API.Web.timeline, .init(username: "alice")).tweets.map(\.id) == [first.id])
        #expect(try await nobody.call(API.Web.timeline, .init(tag: "#Swift")).tweets.map(\.id) == [first.id])
        #expect(try await nobody.call(API.Web.timeline, .init()).tweets.map(\.text) == ["bob's", "first #swift"])
        #expect(try await nobody.call(API.Web.thread, .init(id: first.id)).tweet.id == first.id)
        #expect(try await nobody.refusal(API.Web.user, .init(username: "nobody")).code == -32004)
        #expect(try await nobody.refusal(API.Web.thread, .init(id: 999_999)).code == -32004)
        #expect(try await nobody.refusal(API.Web.timeline, .init(tag: "#")).code == -32602)
    }

    @Test func anAccountOffTheWebIsAStrangerThereAndItsTweetsLeaveIt() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let alices = try await alice.call(API.Tweets.post, .init(text: "alice #tag"))
        let reply = try await bob.call(API.Tweets.post, .init(text: "bob #tag", inReplyToId: alices.id))
        let bobsReply = try await alice.call(API.Tweets.post, .init(text: "alice again", inReplyToId: reply.id))
        _ = try await bob.call(API.Tweets.repost, .init(id: alices.id))
        let off = try await alice.call(API.Profiles.update, .init(webVisible: false))
        #expect(off.changed == ["webVisible"] && off.profile.version == 1 && !off.profile.webVisible)
        // Its owner sees the setting; nobody else's view of the profile carries it.
        guard case .own(let own) = try await alice.call(API.Profiles.get, .init()), !own.webVisible else {
            Issue.record("profile.get does not show alice her profile off the web")
            return
        }
        guard case .other = try await bob.call(API.Profiles.get, .init(username: "alice")) else {
            Issue.record("bob sees alice's own profile")
            return
        }
        #expect(try await alice.call(API.Profiles.update, .init(webVisible: false)).changed == [])
        let nobody = try await daemon.connect()
        #expect(try await nobody.refusal(API.Web.user, .init(username: "alice")).code == -32004)
        #expect(try await nobody.refusal(API.Web.timeline, .init(username: "alice")).code == -32004)
        #expect(try await nobody.refusal(API.Web.thread, .init(id: alices.id)).code == -32004)
        #expect(try await nobody.call(API.Web.timeline, .init()).tweets.map(\.id) == [reply.id], "nor reposted")
        #expect(try await nobody.call(API.Web.timeline, .init(tag: "tag")).tweets.map(\.id) == [reply.id])
        let thread = try await nobody.call(API.Web.thread, .init(id: reply.id))
        #expect(thread.ancestors == [.deleted(id: alices.id, inReplyToId: nil)])
        #expect(thread.descendants == [.deleted(id: bobsReply.id, inReplyToId: reply.id)])
        // Logged in, nothing changes: the flag is the web's alone.
        #expect(try await bob.call(API.Timelines.user, .init(username: "alice")).tweets.count == 2)
        #expect(try await alice.call(API.Profiles.update, .init(webVisible: true)).profile.webVisible)
        #expect(try await nobody.call(API.Web.user, .init(username: "alice")).username == "alice")
        #expect(try await nobody.refusal(API.Profiles.update, .init(webVisible: false)).code == -32001)
    }

    /// The set of the accounts off the web is kept by the read model: a page read before a change is not what
    /// answers after it.
    @Test func anAccountGoingOffTheWebLeavesItsPagesAtOnceAndComesBack() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let alices = try await alice.call(API.Tweets.post, .init(text: "alice #tag"))
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob #tag"))
        let nobody = try await daemon.connect()
        for _ in 1...2 {
            #expect(try await nobody.call(API.Web.user, .init(username: "alice")).username == "alice")
            #expect(try await nobody.call(API.Web.timeline, .init(username: "alice")).tweets.map(\.id) == [alices.id])
            #expect(try await nobody.call(API.Web.timeline, .init()).tweets.map(\.id) == [bobs.id, alices.id])
        }
        _ = try await alice.call(API.Profiles.update, .init(webVisible: false))
        #expect(try await nobody.refusal(API.Web.user, .init(username: "alice")).code == -32004)
        #expect(try await nobody.refusal(API.Web.timeline, .init(username: "alice")).code == -32004)
        #expect(try await nobody.call(API.Web.timeline, .init()).tweets.map(\.id) == [bobs.id])
        #expect(try await nobody.call(API.Web.timeline, .init(tag: "tag")).tweets.map(\.id) == [bobs.id])
        #expect(try await alice.call(API.Profiles.update, .init(webVisible: true)).profile.webVisible)
        #expect(try await nobody.call(API.Web.user, .init(username: "alice")).username == "alice")
        #expect(try await nobody.call(API.Web.timeline, .init(username: "alice")).tweets.map(\.id) == [alices.id])
        #expect(try await nobody.call(API.Web.timeline, .init()).tweets.map(\.id) == [bobs.id, alices.id])
    }

    @Test func aPinnedQuoteOfAnAccountOffTheWebShowsItUnavailable() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's own words"))
        let quote = try await alice.call(API.Tweets.post, .init(text: "look", quoteOf: bobs.id))
        _ = try await alice.call(API.Profiles.pin, .init(id: quote.id))
        let nobody = try await daemon.connect()
        let shown = try await nobody.call(API.Web.user, .init(username: "alice")).pinnedTweet?.quoted
        #expect(shown?.id == bobs.id && shown != .unavailable(id: bobs.id), "shown while bob is on the web")
        _ = try await bob.call(API.Profiles.update, .init(webVisible: false))
        let pinned = try await nobody.call(API.Web.user, .init(username: "alice")).pinnedTweet
        #expect(pinned?.id == quote.id && pinned?.quoted == .unavailable(id: bobs.id))
    }

    @Test func aSuspendedAccountIsNotOnTheWeb() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let bob = try await daemon.signUp("bob")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "spam"))
        _ = try await admin.call(API.Admin.suspend, .init(username: "bob", reason: "spam"))
        let nobody = try await daemon.connect()
        #expect(try await nobody.refusal(API.Web.user, .init(username: "bob")).code == -32004)
        #expect(try await nobody.refusal(API.Web.thread, .init(id: bobs.id)).code == -32004)
        #expect(try await nobody.call(API.Web.timeline, .init()).tweets.map(\.id).contains(bobs.id) == false)
    }
}
