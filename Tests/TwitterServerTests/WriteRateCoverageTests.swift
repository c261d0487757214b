import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Every write a logged-in account can make has a rate (issue #48, item 7: a thousand pipelined blocks and three
/// thousand bookmarks all went through). The list is generated from the methods the daemon serves, so a new
/// method must either declare its rate or be named below with the reason it needs none.
struct WriteRateCoverageTests {
    /// The methods that take no rate, each with why. Everything else the daemon serves must declare one.
    static let unrated: [String: String] = {
        var reasons: [String: String] = [:]
        let reads = [
            "account.export", "auth.peerLinks", "auth.providers", "auth.whoami", "bookmarks.list", "lists.get",
            "lists.members", "lists.mine", "lists.of", "messages.conversations", "messages.list",
            "messages.unreadCount", "notifications.list", "notifications.unreadCount", "profile.get", "rpc.discover",
            "search.tweets", "search.users", "system.health", "system.limits", "system.ping", "system.version",
            "tags.trending",
            "tags.tweets", "timeline.home", "timeline.list", "timeline.public", "timeline.user", "tokens.list",
            "tweets.fetch", "tweets.get", "tweets.liked", "tweets.likedBy", "tweets.quotes", "tweets.repostedBy",
            "tweets.thread",
            "users.blocked",
            "users.followers", "users.following", "users.get", "users.muted", "web.thread", "web.timeline",
            "web.user",
        ]
        for name in reads { reasons[name] = "reads: stores nothing" }
        for name in [
            "messages.subscribe", "messages.unsubscribe", "notifications.subscribe",
            "timeline.subscribe", "tweets.subscribe", "tweets.unsubscribe",
        ] {
            reasons[name] = "a subscription lives in the connection's memory, bounded per connection; nothing stored"
        }
        reasons["auth.signup"] = "before a login: limited per local uid instead (rates.signups)"
        reasons["auth.login"] = "before a login: every failure counts against the login throttle"
        reasons["auth.resetPassword"] = "before a login: every failure counts against the login throttle"
        reasons["auth.logout"] = "ends the caller's own login, once: refusing it would keep a login its owner ends"
        reasons["account.delete"] = "ends the account, once, with its password (throttled)"
        reasons["oauth.apps.current"] = "reads: stores nothing"
        reasons["oauth.apps.verify"] = "reads: stores nothing"
        reasons["oauth.revoke"] = "ends a token, once, with its app's secret"
        reasons["oauth.token"] =
            "before a login: the password grant counts against the login throttle; the others need the app's secret"
        reasons["oauth.apps.register"] =
            "before a login: limited per local uid instead, as signups are (docs/SECURITY.md, Known limits)"
        return reasons
    }()

    @Test func everyMethodTheDaemonServesHasARateOrAReasonForNone() throws {
        let descriptors = try TestAssembly.processor().router.descriptors
        var used: Set<RateLimitedAction> = []
        for descriptor in descriptors {
            if let rate = descriptor.rate {
                let action = try #require(
                    RateLimitedAction(rawValue: rate), "\(descriptor.name)'s rate \(rate) is no [rates] key")
                #expect(descriptor.access == .authenticated, "\(descriptor.name): a rate is per logged-in account")
                #expect(descriptor.errors.contains("rate_limited"), "\(descriptor.name) must document -32006")
                #expect(Self.unrated[descriptor.name] == nil, "\(descriptor.name) is rated: take it off the list")
                used.insert(action)
            } else if descriptor.access == .admin {
                // Admins are trusted with the community (docs/SECURITY.md), and every admin write is audited.
                continue
            } else {
                #expect(
                    Self.unrated[descriptor.name] != nil,
                    "\(descriptor.name) has no rate: declare one in its descriptor (`rate:`), or, if it stores nothing, name it in `unrated` with the reason"
                )
            }
        }
        let served = Set(descriptors.map(\.name))
        #expect(Set(Self.unrated.keys).subtracting(served).isEmpty, "no stale names")
        // Every key is some method's, and has a default: none is configured for nothing, none is unlimited by
        // forgetting it.
        #expect(used == Set(RateLimitedAction.allCases))
        #expect(Set(CommunityConfiguration.defaultRates.keys) == Set(RateLimitedAction.allCases))
    }

    /// Generated from the same list: with every rate at one a day, each rated method's second call is -32006 with
    /// `retryAfter`, whatever its params, so the rate is taken by the dispatch, before the method runs, for all.
    @Test func everyRatedMethodIsRefusedPastItsRateBeforeItRuns() async throws {
        let daemon = try await InProcessDaemon {
            for action in RateLimitedAction.allCases {
                $0.community.rates[action] = RateLimit(count: 1, period: 86_400)
            }
        }
        let rated = daemon.processor.router.descriptors.filter { $0.rate != nil }
        #expect(rated.count >= 29)
        for (index, descriptor) in rated.enumerated() {
            // A fresh account for each: its buckets are all full.
            let caller = try await daemon.signUp("rated\(index)")
            // Params no method takes: the first call spends its token and is refused for its params…
            let first = try await caller.refusal(descriptor.name, .object(["nonsense": .bool(true)]))
            #expect(first.code == -32602, "\(descriptor.name): \(first)")
            // …and the second, of any method of the same rate, never reaches them.
            let second = try await caller.refusal(descriptor.name, .object(["nonsense": .bool(true)]))
            #expect(second.code == -32006, "\(descriptor.name): \(second)")
            guard case .number(let seconds)? = second.data["retryAfter"], let wait = Int(seconds.text) else {
                Issue.record("\(descriptor.name): no retryAfter in \(second)")
                continue
            }
            #expect((1...86_400).contains(wait), "\(descriptor.name): \(wait)")
            #expect(second.data["kind"] == .string("rate_limited"))
        }
    }
}
