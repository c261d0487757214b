import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// Follows, timelines, replies and threads, likes and reposts, over the real socket.
@Suite(.serialized) struct SocialTests {
    /// Runs `body` on a connection signed up as `name`.
    static func as_<Result: Sendable>(
        _ name: String, on daemon: DaemonProcess, signUp: Bool = false, _ body: (RPCConnection) async throws -> Result
    ) async throws -> Result {
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            if signUp {
                try await connection.signUp(email: "\(name)@example.com", username: name)
            } else {
                try await connection.logIn(email: "\(name)@example.com")
            }
            return try await body(connection)
        }
    }

    static func code(_ call: () async throws -> some Any) async throws -> Int? {
        do {
            _ = try await call()
            return nil
        } catch ClientError.remote(let error) {
            return error.code
        }
    }

    static let notFound = -32004

    @Test func followsAndUsersWithTheirErrors() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await Self.as_("alice", on: daemon, signUp: true) { _ in }
        try await Self.as_("bob", on: daemon, signUp: true) { bob in
            #expect(try await bob.call(API.Users.follow, .init(username: "ALICE")).following)
            #expect(try await bob.call(API.Users.follow, .init(username: "alice")).following, "idempotent")
            let selfFollow = try await bob.callError("users.follow", ["username": "bob"])
            #expect(selfFollow?.code == -32602)
            #expect(selfFollow?.data["fields"]?["username"] == "You can not follow yourself")
            #expect(
                try await Self.code { try await bob.call(API.Users.follow, .init(username: "nobody")) } == Self.notFound
            )
            let alice = try await bob.call(API.Users.get, .init(username: "alice"))
            #expect(alice.followersCount == 1 && alice.followedByMe && !alice.followsMe)
            #expect(
                try await Self.code { try await bob.call(API.Users.get, .init(username: "nobody")) } == Self.notFound)
            let followers = try await bob.call(API.Users.followers, .init(username: "alice"))
            #expect(followers.users.map(\.username) == ["bob"] && followers.nextCursor == nil)
            #expect(try await bob.call(API.Users.following, .init(username: "bob")).users.map(\.username) == ["alice"])
            let badCursor = try await bob.callError("users.followers", ["username": "alice", "cursor": "x"])
            #expect(badCursor?.data["fields"]?["cursor"] != nil)
            #expect(try await bob.callError("users.followers", ["username": "alice", "limit": 201])?.code == -32602)
            #expect(try await !bob.call(API.Users.unfollow, .init(username: "alice")).following)
            #expect(try await !bob.call(API.Users.unfollow, .init(username: "alice")).following, "idempotent")
            #expect(try await bob.call(API.Users.get, .init(username: "alice")).followersCount == 0)
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { anonymous in
            for method in ["users.get", "users.follow", "timeline.home", "tweets.like", "tweets.thread"] {
                let refused = try await anonymous.callError(method, ["username": "alice", "id": 1])
                #expect(refused?.code == -32001, "\(method)")
            }
        }
    }

    @Test func followersPageWithCursorsToTheEnd() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await Self.as_("star", on: daemon, signUp: true) { _ in }
        for index in 0..<5 {
            try await Self.as_("fan\(index)", on: daemon, signUp: true) { fan in
                _ = try await fan.call(API.Users.follow, .init(username: "star"))
            }
        }
        try await Self.as_("star", on: daemon) { star in
            var names: [String] = []
            var cursor: String?
            repeat {
                let page = try await star.call(API.Users.followers, .init(username: "star", limit: 2, cursor: cursor))
                names += page.users.map(\.username)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(names == ["fan4", "fan3", "fan2", "fan1", "fan0"], "newest follow first, each once")
        }
    }

    @Test func homePagesHaveNoGapAndNoDuplicateWhileEightConnectionsPost() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let authors = (0..<8).map { "author\($0)" }
        for author in authors {
            try await Self.as_(author, on: daemon, signUp: true) { connection in
                for index in 0..<5 {
                    _ = try await connection.call(API.Tweets.post, .init(text: "\(author) early \(index)"))
                }
            }
        }
        try await Self.as_("reader", on: daemon, signUp: true) { reader in
            for author in authors { _ = try await reader.call(API.Users.follow, .init(username: author)) }
        }
        let (paged, refreshed) = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for author in authors {
                group.addTask {
                    try await Self.as_(author, on: daemon) { connection in
                        for index in 0..<20 {
                            _ = try await connection.call(API.Tweets.post, .init(text: "\(author) late \(index)"))
                        }
                        return []
                    }
                }
            }
            // Paging back while the posts go in: a page boundary must not lose or repeat a tweet.
            let first = try await Self.as_("reader", on: daemon) { reader in
                var ids: [Int64] = []
                var page = try await reader.call(API.Timelines.home, .init(limit: 7))
                let newest = page.newestId
                while !page.tweets.isEmpty {
                    ids += page.tweets.map(\.id)
                    page = try await reader.call(API.Timelines.home, .init(maxId: page.oldestId, limit: 7))
                }
                return [newest ?? 0] + ids
            }
            try await group.waitForAll()
            let newest = first[0]
            // Against two daemons the reader's may not have been told of the other's last posts yet.
            let refreshed = try await Self.as_("reader", on: daemon) { reader in
                try await eventually {
                    try await reader.call(API.Timelines.home, .init(sinceId: newest, limit: 200)).tweets.map(\.id)
                } until: {
                    Set(first.dropFirst() + $0).count >= 8 * 25
                }
            }
            return (Array(first.dropFirst()), refreshed)
        }
        let all = paged + refreshed
        #expect(Set(all).count == all.count, "no tweet twice")
        #expect(all.count == 8 * 25, "every tweet of everyone followed, none missed")
    }

    @Test func unfollowingRemovesAnAccountFromNewPages() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await Self.as_("alice", on: daemon, signUp: true) { alice in
            _ = try await alice.call(API.Tweets.post, .init(text: "alice speaks"))
        }
        try await Self.as_("bob", on: daemon, signUp: true) { bob in
            _ = try await bob.call(API.Tweets.post, .init(text: "bob speaks"))
            #expect(try await bob.call(API.Timelines.home, .init()).tweets.map(\.text) == ["bob speaks"])
            _ = try await bob.call(API.Users.follow, .init(username: "alice"))
            #expect(
                try await bob.call(API.Timelines.home, .init()).tweets.map(\.text) == ["bob speaks", "alice speaks"])
            _ = try await bob.call(API.Users.unfollow, .init(username: "alice"))
            #expect(try await bob.call(API.Timelines.home, .init()).tweets.map(\.text) == ["bob speaks"])
            #expect(
                try await bob.call(API.Timelines.user, .init(username: "alice")).tweets.map(\.text) == ["alice speaks"])
            #expect(try await bob.call(API.Timelines.public, .init()).tweets.count == 2)
            #expect(
                try await Self.code { try await bob.call(API.Timelines.user, .init(username: "nobody")) }
                    == Self.notFound)
        }
    }

    @Test func aThreadFiftyDeepComesBackWhole() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await Self.as_("alice", on: daemon, signUp: true) { alice in
            var chain: [Tweet] = [try await alice.call(API.Tweets.post, .init(text: "reply 0"))]
            for depth in 1..<50 {
                chain.append(
                    try await alice.call(
                        API.Tweets.post, .init(text: "reply \(depth)", inReplyToId: chain[depth - 1].id)))
            }
            let fromLeaf = try await alice.call(API.Tweets.thread, .init(id: chain[49].id))
            #expect(fromLeaf.ancestors.map(\.id) == chain.prefix(49).map(\.id), "root first")
            #expect(fromLeaf.descendants.isEmpty)
            let fromRoot = try await alice.call(API.Tweets.thread, .init(id: chain[0].id))
            #expect(fromRoot.descendants.map(\.id) == chain.dropFirst().map(\.id))
            #expect(fromRoot.descendants.map(\.inReplyToId) == chain.dropLast().map { Optional($0.id) })
            #expect(fromRoot.truncated != true)
            #expect(try await alice.call(API.Tweets.get, .init(id: chain[10].id)).counts.replies == 1)
            // A side branch sorts after the deeper one begun before it.
            let side = try await alice.call(API.Tweets.post, .init(text: "side", inReplyToId: chain[0].id))
            #expect(try await alice.call(API.Tweets.thread, .init(id: chain[0].id)).descendants.last?.id == side.id)
            #expect(
                try await Self.code { try await alice.call(API.Tweets.post, .init(text: "x", inReplyToId: 999_999)) }
                    == Self.notFound)
            #expect(
                try await Self.code { try await alice.call(API.Tweets.thread, .init(id: 999_999)) } == Self.notFound)
        }
    }

    @Test func likesFromFiftyConcurrentConnectionsAreCountedExactly() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let tweet = try await Self.as_("alice", on: daemon, signUp: true) { alice in
            try await alice.call(API.Tweets.post, .init(text: "like me"))
        }
        var tokens: [String] = []
        for index in 0..<50 {
            tokens.append(
                try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                    try await connection.signUp(email: "fan\(index)@example.com", username: "fan\(index)")
                })
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for token in tokens {
                group.addTask {
                    try await RPCConnection.withConnection(socketPath: daemon.socketPath) { fan in
                        try await fan.logIn(token: token)
                        // Twice each: a like is idempotent.
                        _ = try await fan.call(API.Tweets.like, .init(id: tweet.id))
                        _ = try await fan.call(API.Tweets.like, .init(id: tweet.id))
                    }
                }
            }
            try await group.waitForAll()
        }
        try await Self.as_("fan0", on: daemon) { fan in
            let seen = try await fan.call(API.Tweets.get, .init(id: tweet.id))
            #expect(seen.counts.likes == 50)
            #expect(seen.likedByMe)
            var likers: [String] = []
            var cursor: String?
            repeat {
                let page = try await fan.call(API.Tweets.likedBy, .init(id: tweet.id, limit: 20, cursor: cursor))
                likers += page.users.map(\.username)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(Set(likers).count == 50 && likers.count == 50)
            let unliked = try await fan.call(API.Tweets.unlike, .init(id: tweet.id))
            #expect(!unliked.liked && unliked.likesCount == 49)
            #expect(try await fan.call(API.Tweets.unlike, .init(id: tweet.id)).likesCount == 49, "idempotent")
            #expect(try await !fan.call(API.Tweets.get, .init(id: tweet.id)).likedByMe)
            #expect(try await Self.code { try await fan.call(API.Tweets.like, .init(id: 999_999)) } == Self.notFound)
            #expect(try await Self.code { try await fan.call(API.Tweets.likedBy, .init(id: 999_999)) } == Self.notFound)
        }
        try await Self.as_("alice", on: daemon) { alice in
            let seen = try await alice.call(API.Tweets.get, .init(id: tweet.id))
            #expect(!seen.likedByMe, "likedByMe is per reader")
        }
    }

    @Test func repostsReachFollowersOnceAndADeletedOriginalVanishesEverywhere() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let original = try await Self.as_("alice", on: daemon, signUp: true) { alice in
            try await alice.call(API.Tweets.post, .init(text: "original"))
        }
        let reply = try await Self.as_("bob", on: daemon, signUp: true) { bob in
            let repost = try await bob.call(API.Tweets.repost, .init(id: original.id))
            #expect(repost.repostOf?.id == original.id && repost.text.isEmpty)
            #expect(repost.repostOf?.repostedByMe == true && repost.repostOf?.counts.reposts == 1)
            #expect(try await bob.call(API.Tweets.repost, .init(id: original.id)).id == repost.id, "once per user")
            #expect(try await Self.code { try await bob.call(API.Tweets.repost, .init(id: 999_999)) } == Self.notFound)
            _ = try await bob.call(API.Tweets.like, .init(id: original.id))
            return try await bob.call(API.Tweets.post, .init(text: "a reply", inReplyToId: original.id))
        }
        try await Self.as_("carol", on: daemon, signUp: true) { carol in
            _ = try await carol.call(API.Users.follow, .init(username: "bob"))
            _ = try await carol.call(API.Users.follow, .init(username: "alice"))
            let home = try await carol.call(API.Timelines.home, .init())
            // bob's repost is newer than alice's original: the page shows the original once, as the repost.
            #expect(home.tweets.map { $0.repostOf?.id ?? $0.id } == [reply.id, original.id])
            #expect(home.tweets.last?.repostOf != nil)
            let repostID = try #require(home.tweets.last?.id)
            let deletingRepost = try await carol.callError("tweets.delete", ["id": .number(JSONNumber(Int(repostID)))])
            #expect(deletingRepost?.code == -32003, "not carol's repost")
            let deletingOriginal = try await carol.callError(
                "tweets.delete", ["id": .number(JSONNumber(Int(original.id)))])
            #expect(deletingOriginal?.code == -32003, "not carol's tweet")
            #expect(
                try await carol.call(API.Tweets.unrepost, .init(id: original.id)).reposted == false,
                "carol had no repost: nothing happens")
            #expect(try await carol.call(API.Tweets.get, .init(id: original.id)).counts.reposts == 1)
        }
        try await Self.as_("alice", on: daemon) { alice in
            try await alice.call("tweets.delete", ["id": .number(JSONNumber(Int(original.id)))]).void()
        }
        try await Self.as_("carol", on: daemon) { carol in
            // Against two daemons, carol's may not have been told of the deletion yet: her home page, read
            // from the same delivered commits as the rest, shows when it has.
            _ = try await eventually {
                try await carol.call(API.Timelines.home, .init()).tweets
            } until: {
                !$0.contains { $0.id == original.id || $0.repostOf?.id == original.id }
            }
            let everywhere = [
                try await carol.call(API.Timelines.home, .init()).tweets,
                try await carol.call(API.Timelines.public, .init()).tweets,
                try await carol.call(API.Timelines.user, .init(username: "bob")).tweets,
                try await carol.call(API.Timelines.user, .init(username: "alice")).tweets,
                try await carol.call(API.Tweets.fetch, .init()).tweets,
            ]
            for tweets in everywhere {
                #expect(!tweets.contains { $0.id == original.id || $0.repostOf?.id == original.id })
            }
            let thread = try await carol.call(API.Tweets.thread, .init(id: reply.id))
            #expect(thread.ancestors == [.deleted(id: original.id, inReplyToId: nil)])
            #expect(try await carol.call(API.Users.get, .init(username: "bob")).tweetsCount == 1, "the repost is gone")
            #expect(
                try await Self.code { try await carol.call(API.Tweets.get, .init(id: original.id)) } == Self.notFound)
        }
        try await Self.as_("bob", on: daemon) { bob in
            let code = try await Self.code { try await bob.call(API.Tweets.unrepost, .init(id: original.id)) }
            #expect(code == Self.notFound)
        }
    }

    @Test func aLiveHomeStreamCarriesFollowedAccountsOnly() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        for name in ["alice", "carol"] { try await Self.as_(name, on: daemon, signUp: true) { _ in } }
        try await Self.as_("bob", on: daemon, signUp: true) { bob in
            _ = try await bob.call(API.Users.follow, .init(username: "alice"))
            _ = try await bob.call(API.Timelines.subscribe, .init(timeline: "home"))
            let withoutUser = try await bob.callError("timeline.subscribe", ["timeline": "user"])
            #expect(withoutUser?.data["fields"]?["username"] != nil)
            #expect(try await bob.callError("timeline.subscribe", ["timeline": "everything"])?.code == -32602)
            try await Self.as_("carol", on: daemon) { carol in
                _ = try await carol.call(API.Tweets.post, .init(text: "from a stranger"))
            }
            try await Self.as_("alice", on: daemon) { alice in
                _ = try await alice.call(API.Tweets.post, .init(text: "from a friend"))
            }
            var notifications = bob.notifications.makeAsyncIterator()
            let first = try #require(try await notifications.next().flatMap { try bob.decode($0, as: API.Tweets.new) })
            #expect(first.tweet.text == "from a friend", "the stranger's earlier post never arrives")
            // Following carol from here on lets her next post through.
            _ = try await bob.call(API.Users.follow, .init(username: "carol"))
            try await Self.as_("carol", on: daemon) { carol in
                _ = try await carol.call(API.Tweets.post, .init(text: "now followed"))
            }
            let second = try #require(try await notifications.next().flatMap { try bob.decode($0, as: API.Tweets.new) })
            #expect(second.tweet.text == "now followed")
        }
    }
}

extension JSONValue {
    /// Discards a result the test does not look at.
    func void() {}
}
