import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `reports.create`: anyone reports an account or a tweet, and every admin is told.
struct ReportRouteTests: RouteTesting {
    static let routes = [API.Reports.create.name]

    @Test func createNotifiesTheAdminsAndRefusesYourselfAHiddenTweetAndAMismatchedAuthor() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        let tweet = try await bob.call(API.Tweets.post, .init(text: "rude"))
        let report = try await alice.call(API.Reports.create, .init(username: "bob", tweetId: tweet.id, reason: "rude"))
        let told = try await admin.call(API.Notifications.list, .init(types: [.adminReport])).notifications
        #expect(told.map(\.reportID) == [report.id] && told.first?.from.username == "alice")
        #expect(try await bob.call(API.Notifications.list, .init()).notifications.isEmpty, "the reported is not told")

        let mine = try await alice.call(API.Tweets.post, .init(text: "mine"))
        #expect(try await alice.refusal(API.Reports.create, .init(username: "alice", reason: "me")).code == -32602)
        #expect(try await alice.refusal(API.Reports.create, .init(tweetId: mine.id, reason: "me")).code == -32602)
        let mismatch = try await alice.refusal(
            API.Reports.create, .init(username: "carol", tweetId: tweet.id, reason: "who"))
        #expect(mismatch.code == -32602)
        #expect(try await alice.refusal(API.Reports.create, .init(reason: "nothing named")).code == -32602)
        #expect(try await alice.refusal(API.Reports.create, .init(username: "nobody", reason: "x")).code == -32004)
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        #expect(try await alice.refusal(API.Reports.create, .init(tweetId: tweet.id, reason: "x")).code == -32004)
        #expect(
            try await daemon.connect().refusal(API.Reports.create, .init(username: "bob", reason: "x")).code == -32001)
    }

    @Test func reportsArePerAccountRateLimitedWhenTheDaemonSaysSo() async throws {
        let daemon = try await InProcessDaemon { $0.community.rates = [.reports: RateLimit(count: 1, period: 86_400)] }
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        _ = try await alice.call(API.Reports.create, .init(username: "bob", reason: "one"))
        #expect(try await alice.refusal(API.Reports.create, .init(username: "bob", reason: "two")).code == -32006)
    }
}
