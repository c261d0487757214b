import JSONRPC
import TwitterAPI
import TwitterCore
import TwitterRuntime

/// Carries one subscription's events to its connection as JSON-RPC notifications: first the tweets since
/// `sinceId` from the database, then the live events after them, each exactly once and in id order.
struct SubscriptionForwarder: CommitHubForwarding {
    let id: Int
    let subscription: CommitSubscription
    let timeline: Timeline
    let sinceID: Int64?
    /// Whose marks the tweets carry.
    let reader: Int64
    let services: TweetServices
    let capacity: Int

    /// Sends notification lines through `send` until the subscription ends, lags, or the connection fails.
    func run(send: @Sendable ([UInt8]) async throws -> Void) async {
        // A list stream's list as the reader may read it, read after the stream began: a change of its privacy
        // committed since is in the stream too, and applied on top in commit order.
        var list: ListState?
        await forwardEvents(lagged: API.Tweets.lagged, send: send) {
            list = try await listState()
            return try await catchUp(list: list, send: send)
        } forward: { event, lastDelivered in
            switch event {
            case .tweet(.posted(let tweet)):
                // The catch-up may already have sent what the live stream repeats.
                guard tweet.id > lastDelivered else { return }
                lastDelivered = tweet.id
                // Checked as each tweet goes out, so a mute or block takes effect at once.
                let view = try await services.access.stream(for: reader, list: list)
                guard view.sends(tweet) else { return }
                try await send(try await newTweet(tweet))
            case .tweet(.deleted(let tweetID, let authorID, _)):
                let view = try await services.access.stream(for: reader, list: list)
                guard view.sendsDeletion(by: authorID) else { return }
                try await send(notificationLine(API.Tweets.deleted, .init(subscription: id, id: tweetID)))
            case .relation(.listPrivacyChanged(_, _, let isPrivate)):
                list?.isPrivate = isPrivate
            default:
                return  // only postings, deletions and a list's privacy pass the filter
            }
        }
    }

    /// What a list stream knows of its list: whose it is and whether it is private now.
    struct ListState {
        let ownerID: Int64
        var isPrivate: Bool
    }

    /// The list of a list stream, as stored; nil for the other timelines. A list gone since is read by nobody.
    private func listState() async throws -> ListState? {
        guard case .list(let listID) = timeline else { return nil }
        guard let stored = try await services.lists.list(id: listID) else {
            return ListState(ownerID: 0, isPrivate: true)
        }
        return ListState(ownerID: stored.owner.id, isPrivate: stored.isPrivate)
    }

    /// Sends what was posted after `sinceID`; returns the id the live stream continues after.
    private func catchUp(list: ListState?, send: @Sendable ([UInt8]) async throws -> Void) async throws -> Int64 {
        guard let sinceID else { return 0 }
        let backlog = try await services.store.tweets(after: sinceID, in: timeline, limit: capacity + 1)
        guard backlog.count <= capacity else {
            try await send(lagged(API.Tweets.lagged, resumeFrom: sinceID))
            subscription.cancel()
            return Int64.max
        }
        for tweet in try await services.access.stream(for: reader, list: list).sends(backlog) {
            try await send(try await newTweet(tweet))
        }
        return backlog.last?.id ?? sinceID
    }

    /// `tweets.new` with the reader's marks, written by hand like every tweet; clients decode it as
    /// `API.Tweets.NewTweet`.
    private func newTweet(_ unmarked: Tweet) async throws -> [UInt8] {
        let tweet = try await services.feed.marked([unmarked], for: reader, stores: services.readStores)[0]
        var params: [UInt8] = []
        JSONObjectWriter.write(into: &params) { notice, bytes in
            notice.integer("subscription", Int64(id), into: &bytes)
            notice.value("tweet", tweet, into: &bytes)
        }
        var line: [UInt8] = []
        ResponseWriter.writeNotification(method: API.Tweets.new.name, encodedParams: params, into: &line)
        return line
    }
}
