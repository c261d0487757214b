import Foundation
import TwitterCore
import TwitterTUI

/// Tweets and states for the model's tests: fixed ids and times, so a rendered grid is the same every run.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_795_600_000)  // 2026-11-25, mid-morning UTC

    static func tweet(
        _ id: Int64, by author: String = "alice", _ text: String = "hello", hoursAgo: Double = 3,
        entities: TweetEntities = TweetEntities(), inReplyTo: Int64? = nil, repostOf: Tweet? = nil
    ) -> Tweet {
        Tweet(
            id: id, author: .init(id: 1, username: author), text: text,
            createdAt: now.addingTimeInterval(-hoursAgo * 3600), inReplyToID: inReplyTo,
            counts: TweetCounts(likes: 1, reposts: 0, replies: 2), repostOf: repostOf, entities: entities)
    }

    /// A connected state showing `tweets` on Home.
    static func home(_ tweets: [Tweet], capabilities: Capabilities = Capabilities(methods: [])) -> AppState {
        var state = AppState(socket: "/run/twitterd.sock")
        state.now = now
        _ = state.apply(.connected(account: "alice", capabilities: capabilities))
        _ = state.apply(.timeline(.home, tweets, homeIsPublic: false))
        _ = state.apply(.notifications([], unread: 0))
        return state
    }
}
