import JSONRPC
import TwitterAPI
import TwitterCore

/// Carries one subscription's events to its connection as JSON-RPC notifications: first the tweets since
/// `sinceId` from the database, then the live events after them, each exactly once and in id order.
struct SubscriptionForwarder: Sendable {
    let id: Int
    let subscription: TweetSubscription
    let timeline: Timeline
    let sinceID: Int64?
    /// Whose marks the tweets carry.
    let reader: Int64
    let services: TweetServices
    let capacity: Int

    /// Sends notification lines through `send` until the subscription ends, lags, or the connection fails.
    func run(send: @Sendable ([UInt8]) async throws -> Void) async {
        do {
            var lastDelivered = try await catchUp(send: send)
            while let delivery = await subscription.next() {
                switch delivery {
                case .event(.posted(let tweet)):
                    // The catch-up may already have sent what the live stream repeats.
                    guard tweet.id > lastDelivered else { continue }
                    lastDelivered = tweet.id
                    // Checked as each tweet goes out, so a mute or block takes effect at once.
                    guard try await services.visibility(for: reader).lists(tweet) else { continue }
                    try await send(try await newTweet(tweet))
                case .event(.deleted(let tweetID, let authorID, _)):
                    // A hidden account's tweets were never shown; neither is their going.
                    guard !(try await services.visibility(for: reader).hiding.contains(authorID)) else { continue }
                    try await send(notificationLine(API.Tweets.deleted, .init(subscription: id, id: tweetID)))
                case .lagged:
                    try await send(
                        notificationLine(API.Tweets.lagged, .init(subscription: id, resumeFrom: lastDelivered)))
                    return
                case .event:
                    continue  // only postings and deletions pass the filter
                }
            }
        } catch {
            subscription.cancel()
        }
    }

    /// Sends what was posted after `sinceID`; returns the id the live stream continues after.
    private func catchUp(send: @Sendable ([UInt8]) async throws -> Void) async throws -> Int64 {
        guard let sinceID else { return 0 }
        let backlog = try await services.store.tweets(after: sinceID, in: timeline, limit: capacity + 1)
        guard backlog.count <= capacity else {
            try await send(notificationLine(API.Tweets.lagged, .init(subscription: id, resumeFrom: sinceID)))
            subscription.cancel()
            return Int64.max
        }
        for tweet in try await services.visibility(for: reader).listed(backlog) {
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
