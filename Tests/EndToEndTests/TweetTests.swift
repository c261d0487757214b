import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient

/// Posting, reading, paging, deleting, the live stream and durability, over the real socket.
@Suite(.serialized) struct TweetTests {
    static func ids(_ page: JSONValue) -> [Int64] {
        guard case .array(let tweets)? = page["tweets"] else { return [] }
        return tweets.compactMap { tweet in
            if case .number(let id)? = tweet["id"] { return id.int64 }
            return nil
        }
    }

    static func id(_ value: JSONValue?) -> Int64? {
        if case .number(let number)? = value { return number.int64 }
        return nil
    }

    @Test func postFetchGetAndDeleteWithPermissions() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let tweetID = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            let posted = try await alice.call("tweets.post", ["text": "  hello, world  "])
            #expect(posted["text"] == "hello, world")
            #expect(posted["author"]?["username"] == "alice")
            let invalid = try await alice.callError(
                "tweets.post", ["text": .string(String(repeating: "x", count: 141))])
            #expect(invalid?.data["fields"]?["text"] == "Tweet is 141 characters; the limit is 140")
            #expect(try await alice.callError("tweets.fetch", ["limit": 201])?.code == -32602)
            #expect(try await alice.callError("tweets.fetch", ["author": "nobody"])?.code == -32004)
            return try #require(Self.id(posted["id"]))
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
            _ = try await bob.call("tweets.post", ["text": "bob was here"])
            let feed = try await bob.call("tweets.fetch")
            #expect(feed["tweets"]?[0]?["text"] == "bob was here", "the new tweet tops the feed")
            #expect(Self.ids(feed).count == 2)
            let alices = try await bob.call("tweets.fetch", ["author": "ALICE"])
            #expect(Self.ids(alices) == [tweetID])
            #expect(try await bob.call("tweets.get", [.number(JSONNumber(Int(tweetID)))])["text"] == "hello, world")
            let forbidden = try await bob.callError("tweets.delete", ["id": .number(JSONNumber(Int(tweetID)))])
            #expect(forbidden?.code == -32003)
            #expect(try await bob.callError("tweets.delete", ["id": 999_999])?.code == -32004)
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.logIn(email: "alice@example.com")
            #expect(try await alice.call("tweets.delete", ["id": .number(JSONNumber(Int(tweetID)))])["deleted"] == true)
            #expect(try await alice.callError("tweets.get", ["id": .number(JSONNumber(Int(tweetID)))])?.code == -32004)
        }
    }

    @Test func aKeptFeedPageNeverHidesAPostOrADeletion() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com")
            _ = try await alice.call("tweets.post", ["text": "first"])
            // Twice, so the second answer is the kept one.
            #expect(Self.ids(try await alice.call("tweets.fetch")).count == 1)
            #expect(Self.ids(try await alice.call("tweets.fetch")).count == 1)
            let second = try await alice.call("tweets.post", ["text": "second"])
            let afterPost = try await alice.call("tweets.fetch")
            #expect(afterPost["tweets"]?[0]?["text"] == "second")
            #expect(Self.ids(afterPost).count == 2)
            let secondID = try #require(Self.id(second["id"]))
            _ = try await alice.call("tweets.delete", ["id": .number(JSONNumber(Int(secondID)))])
            let afterDelete = try await alice.call("tweets.fetch")
            #expect(afterDelete["tweets"]?[0]?["text"] == "first")
            #expect(Self.ids(afterDelete).count == 1)
        }
    }

    @Test func pipelinedPostsShareCommitsButKeepTheirOrderAndAFetchBehindThemSeesThemAll() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let socket = try RawSocket(path: daemon.socketPath)
        let signUp =
            #"{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"p@example.com","password":"correct horse battery","username":"p"},"id":0}"#
        let count = 50
        let posts = (1...count).map {
            #"{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"post \#($0)"},"id":\#($0)}"#
        }
        let fetch = #"{"jsonrpc":"2.0","method":"tweets.fetch","params":{"limit":100},"id":"fetch"}"#
        // One write: the login is pipelined too, so the posts must also wait for it to take effect.
        #expect(socket.send(([signUp] + posts + [fetch]).joined(separator: "\n") + "\n"))
        let signedUp = try JSONParser().parse(Array(try #require(socket.readLine()).utf8))
        #expect(signedUp["result"] != nil, "\(signedUp)")
        var ids: [Int64] = []
        for index in 1...count {
            let answer = try JSONParser().parse(Array(try #require(socket.readLine()).utf8))
            #expect(answer["id"] == .number(JSONNumber(index)))
            #expect(answer["result"]?["text"] == .string("post \(index)"))
            ids.append(try #require(Self.id(answer["result"]?["id"])))
        }
        #expect(ids == ids.sorted() && Set(ids).count == count, "posts are stored in the order sent")
        let feed = try JSONParser().parse(Array(try #require(socket.readLine()).utf8))
        #expect(feed["id"] == "fetch")
        #expect(Self.ids(feed["result"] ?? .null) == ids.reversed(), "the fetch sees every post before it")
    }

    @Test func idempotentPostReturnsTheFirstTweet() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com")
            let first = try await alice.call("tweets.post", ["text": "only once", "idempotencyKey": "retry-1"])
            let retry = try await alice.call("tweets.post", ["text": "only once", "idempotencyKey": "retry-1"])
            #expect(first == retry)
            #expect(Self.ids(try await alice.call("tweets.fetch")).count == 1)
        }
    }

    @Test func pagingBackWithMaxIdWhileOthersPostHasNoDuplicateAndNoGap() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { writer in
            try await writer.signUp(email: "writer@example.com")
        }
        let posted = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { writer in
            try await writer.logIn(token: token)
            return try await withThrowingTaskGroup(of: Int64?.self) { group in
                for index in 0..<1000 {
                    group.addTask {
                        Self.id(try await writer.call("tweets.post", ["text": .string("tweet \(index)")])["id"])
                    }
                }
                var ids: [Int64] = []
                for try await id in group { if let id { ids.append(id) } }
                return ids
            }
        }
        #expect(posted.count == 1000)
        let seen = try await withThrowingTaskGroup(of: [Int64].self) { group in
            // Meanwhile another connection keeps posting newer tweets.
            group.addTask {
                try await RPCConnection.withConnection(socketPath: daemon.socketPath) { other in
                    try await other.logIn(token: token)
                    for index in 0..<200 { _ = try await other.call("tweets.post", ["text": .string("late \(index)")]) }
                }
                return []
            }
            group.addTask {
                try await RPCConnection.withConnection(socketPath: daemon.socketPath) { reader in
                    try await reader.logIn(token: token)
                    var seen: [Int64] = []
                    var maxID: Int64?
                    while true {
                        var params: [String: JSONValue] = ["limit": 37]
                        if let maxID { params["maxId"] = .number(JSONNumber(Int(maxID))) }
                        let page = try await reader.call("tweets.fetch", .object(params))
                        let ids = Self.ids(page)
                        if ids.isEmpty { break }
                        #expect(Self.id(page["oldestId"]) == ids.last)
                        seen += ids
                        maxID = ids.last
                    }
                    return seen
                }
            }
            var all: [Int64] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(seen == seen.sorted(by: >), "strictly newest first")
        #expect(Set(seen).count == seen.count, "no duplicate")
        #expect(Set(posted).isSubset(of: Set(seen)), "no gap")
    }

    @Test func subscriptionStreamsNewTweetsInIdOrderAfterItsAnswer() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        let subscriber = try RawSocket(path: daemon.socketPath)
        subscriber.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                + "\n")
        #expect(subscriber.readLine()?.contains(#""result""#) == true)
        subscriber.send(#"{"jsonrpc":"2.0","method":"tweets.subscribe","id":2}"# + "\n")
        let answer = try JSONParser().parse(try #require(subscriber.readLine()))
        #expect(answer["result"]?["subscription"] == 1, "the answer comes before any notification")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                        try await connection.logIn(token: token)
                        for index in 0..<25 {
                            _ = try await connection.call("tweets.post", ["text": .string("w\(writer) #\(index)")])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        var received: [Int64] = []
        while received.count < 100, let line = subscriber.readLine() {
            let notification = try JSONParser().parse(line)
            #expect(notification["method"] == "tweets.new")
            #expect(notification["params"]?["subscription"] == 1)
            if let id = Self.id(notification["params"]?["tweet"]?["id"]) { received.append(id) }
        }
        #expect(received.count == 100)
        #expect(received == received.sorted())
        #expect(Set(received).count == 100)
    }

    @Test func sinceIdCatchesUpWhatWasPostedBetweenFetchAndSubscribe() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            for index in 0..<5 { _ = try await alice.call("tweets.post", ["text": .string("before \(index)")]) }
            let newest = try #require(Self.id(try await alice.call("tweets.fetch")["newestId"]))
            var missed: [Int64] = []
            for index in 0..<3 {
                missed.append(
                    try #require(Self.id(try await alice.call("tweets.post", ["text": .string("gap \(index)")])["id"])))
            }
            let subscription = try await alice.call("tweets.subscribe", ["sinceId": .number(JSONNumber(Int(newest)))])
            #expect(subscription["subscription"] == 1)
            let live = try #require(Self.id(try await alice.call("tweets.post", ["text": "live"])["id"]))
            var iterator = alice.notifications.makeAsyncIterator()
            var delivered: [Int64] = []
            while delivered.count < 4, let notification = await iterator.next() {
                #expect(notification.method == "tweets.new")
                if let id = Self.id(notification.params["tweet"]?["id"]) { delivered.append(id) }
            }
            #expect(delivered == missed + [live])
            _ = try await alice.call("tweets.delete", ["id": .number(JSONNumber(Int(live)))])
            let deletion = await iterator.next()
            #expect(deletion?.method == "tweets.deleted")
            #expect(deletion.flatMap { Self.id($0.params["id"]) } == live)
            #expect(try await alice.call("tweets.unsubscribe", [1])["unsubscribed"] == true)
            #expect(try await alice.callError("tweets.unsubscribe", [1])?.code == -32004)
        }
    }

    @Test func aSubscriberThatStopsReadingGetsOneLagNoticeAndStaysBounded() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        let slow = try RawSocket(path: daemon.socketPath)
        slow.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                + "\n")
        _ = slow.readLine()
        slow.send(#"{"jsonrpc":"2.0","method":"tweets.subscribe","id":2}"# + "\n")
        _ = slow.readLine()
        // The slow client reads nothing while far more than 1000 notifications are due.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { writer in
            try await writer.logIn(token: token)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<3000 {
                    group.addTask { _ = try await writer.call("tweets.post", ["text": .string("flood \(index)")]) }
                }
                try await group.waitForAll()
            }
        }
        var lastDelivered: Int64 = 0
        var lag: JSONValue?
        while let line = slow.readLine() {
            let notification = try JSONParser().parse(line)
            if notification["method"] == "tweets.lagged" {
                lag = notification["params"]
                break
            }
            let id = try #require(Self.id(notification["params"]?["tweet"]?["id"]))
            #expect(id > lastDelivered)
            lastDelivered = id
        }
        let lagged = try #require(lag)
        #expect(Self.id(lagged["resumeFrom"]) == lastDelivered, "the lag notice names the id to re-fetch from")
        // The subscription has ended: a new post reaches the connection no more, a ping still does.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { writer in
            try await writer.logIn(token: token)
            _ = try await writer.call("tweets.post", ["text": "after the lag"])
        }
        slow.send(#"{"jsonrpc":"2.0","method":"system.ping","id":3}"# + "\n")
        #expect(slow.readLine() == #"{"id":3,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func anAnsweredPostSurvivesKillDashNine() async throws {
        let directory = try TemporaryDirectory.make()
        var tweetID: Int64 = 0
        let token: String
        do {
            let daemon = try await DaemonProcess(directory: directory, configuration: DaemonProcess.fastHashing)
            token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
                let token = try await alice.signUp(email: "alice@example.com")
                tweetID = try #require(Self.id(try await alice.call("tweets.post", ["text": "durable"])["id"]))
                daemon.send(SIGKILL)
                return token
            }
            #expect(daemon.waitForExit() != 0)
        }
        let restarted = try await DaemonProcess(directory: directory, configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: restarted.socketPath) { alice in
            try await alice.logIn(token: token)
            #expect(try await alice.call("tweets.get", [.number(JSONNumber(Int(tweetID)))])["text"] == "durable")
        }
    }

    @Test func seedFillsADatabaseTheDaemonServes() async throws {
        let directory = try TemporaryDirectory.make()
        let seeded = try runProduct(
            "twitterd",
            [
                "seed", "--users", "20", "--tweets", "500", "--database", directory + "/twitterd.sqlite",
                "--config", try Self.writeFastHashingConfig(in: directory),
            ]
        )
        #expect(seeded.status == 0, "\(seeded.error)")
        #expect(seeded.output.contains("seeded 20 users and 500 tweets"))
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing, store: .sqlite)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(email: "seed1@example.com", password: "seed-password")
            let page = try await connection.call("tweets.fetch", ["limit": 200])
            #expect(Self.ids(page).count == 200)
            #expect(Self.ids(page) == Self.ids(page).sorted(by: >))
        }
    }

    /// bench/instructions.sh counts instructions on a seeded database: the same seed must make the same one.
    @Test func theSameRandomSeedMakesTheSameTweets() async throws {
        var texts: [[String]] = []
        for seed in ["38", "38", "39"] {
            let directory = try TemporaryDirectory.make()
            let seeded = try runProduct(
                "twitterd",
                [
                    "seed", "--users", "5", "--tweets", "50", "--random-seed", seed, "--database",
                    directory + "/twitterd.sqlite", "--config", try Self.writeFastHashingConfig(in: directory),
                ]
            )
            #expect(seeded.status == 0, "\(seeded.error)")
            let daemon = try await DaemonProcess(
                directory: directory, configuration: DaemonProcess.fastHashing, store: .sqlite)
            let page = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                try await connection.logIn(email: "seed1@example.com", password: "seed-password")
                return try await connection.call(API.Tweets.fetch, .init(limit: 50))
            }
            texts.append(page.tweets.map { "@\($0.author.username): \($0.text)" })
        }
        #expect(texts[0].count == 50)
        #expect(texts[0] == texts[1], "seed 38 twice")
        #expect(texts[0] != texts[2], "another seed, other tweets")
    }

    @Test func seedBuildsAFollowGraphWithAFewStarsAndCountsThatAddUp() async throws {
        let directory = try TemporaryDirectory.make()
        let seeded = try runProduct(
            "twitterd",
            [
                "seed", "--users", "200", "--tweets", "2000", "--follows", "10", "--database",
                directory + "/twitterd.sqlite", "--config", try Self.writeFastHashingConfig(in: directory),
            ]
        )
        #expect(seeded.status == 0, "\(seeded.error)")
        #expect(seeded.output.contains("seeded 200 users following about 10 each and 2000 tweets"))
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing, store: .sqlite)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(email: "seed1@example.com", password: "seed-password")
            var followers: [Int] = []
            var following = 0
            for index in 1...200 {
                let user = try await connection.call(API.Users.get, .init(username: "seed\(index)"))
                followers.append(user.followersCount)
                following += user.followingCount
            }
            #expect((1800...2200).contains(following), "about 10 follows each: \(following)")
            let sorted = followers.sorted(by: >)
            #expect(sorted[0] >= 100, "the most followed account reaches half the users: \(sorted[0])")
            #expect(sorted[100] <= 10, "most accounts have few followers: \(sorted[100])")
            // The counters kept in the rows agree with the rows they count.
            // Replies and reposts come last; the likes went to the tweets before them.
            let page = try await connection.call(API.Tweets.fetch, .init(limit: 200))
            var checked = 0
            for id in Int64(1901)...2000 {
                let tweet = try await connection.call(API.Tweets.get, .init(id: id))
                guard tweet.counts.likes > 0 else { continue }
                var likers = 0
                var cursor: String?
                repeat {
                    let likes = try await connection.call(
                        API.Tweets.likedBy, .init(id: tweet.id, limit: 200, cursor: cursor))
                    likers += likes.users.count
                    cursor = likes.nextCursor
                } while cursor != nil
                #expect(likers == tweet.counts.likes)
                let thread = try await connection.call(API.Tweets.thread, .init(id: tweet.id))
                #expect(thread.descendants.filter { $0.inReplyToId == tweet.id }.count == tweet.counts.replies)
                checked += 1
            }
            #expect(checked > 10, "the newest tweets drew likes")
            #expect(page.tweets.contains { $0.repostOf != nil }, "and reposts")
            #expect(page.tweets.contains { $0.inReplyToID != nil }, "and replies")
        }
    }

    static func writeFastHashingConfig(in directory: String) throws -> String {
        let path = directory + "/seed.toml"
        try DaemonProcess.fastHashing.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
