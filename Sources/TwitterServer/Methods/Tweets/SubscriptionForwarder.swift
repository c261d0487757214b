import JSONRPC
import TwitterCore

/// Carries one subscription's events to its connection as JSON-RPC notifications: first the tweets since
/// `sinceId` from the database, then the live events after them, each exactly once and in id order.
struct SubscriptionForwarder: Sendable {
    let id: Int
    let subscription: TweetSubscription
    let sinceID: Int64?
    let tweets: any TweetStoring
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
                    try await send(notification("tweets.new", TweetNotice(subscription: id, tweet: tweet)))
                    lastDelivered = tweet.id
                case .event(.deleted(let tweetID, _)):
                    try await send(notification("tweets.deleted", DeletionNotice(subscription: id, id: tweetID)))
                case .lagged:
                    try await send(
                        notification("tweets.lagged", LagNotice(subscription: id, resumeFrom: lastDelivered)))
                    return
                }
            }
        } catch {
            subscription.cancel()
        }
    }

    /// Sends what was posted after `sinceID`; returns the id the live stream continues after.
    private func catchUp(send: @Sendable ([UInt8]) async throws -> Void) async throws -> Int64 {
        guard let sinceID else { return 0 }
        let backlog = try await tweets.tweets(after: sinceID, authorID: subscription.authorID, limit: capacity + 1)
        guard backlog.count <= capacity else {
            try await send(notification("tweets.lagged", LagNotice(subscription: id, resumeFrom: sinceID)))
            subscription.cancel()
            return Int64.max
        }
        for tweet in backlog {
            try await send(notification("tweets.new", TweetNotice(subscription: id, tweet: tweet)))
        }
        return backlog.last?.id ?? sinceID
    }

    private func notification(_ method: String, _ params: some Encodable) throws -> [UInt8] {
        var line: [UInt8] = []
        ResponseWriter.writeNotification(method: method, encodedParams: try ResultEncoder.encode(params), into: &line)
        return line
    }

    private func notification(_ method: String, _ params: TweetNotice) -> [UInt8] {
        var encoded: [UInt8] = []
        params.writeJSON(into: &encoded)
        var line: [UInt8] = []
        ResponseWriter.writeNotification(method: method, encodedParams: encoded, into: &line)
        return line
    }

    struct TweetNotice: JSONWritable {
        let subscription: Int
        let tweet: Tweet

        func writeJSON(into bytes: inout [UInt8]) {
            JSONObjectWriter.write(into: &bytes) { notice, bytes in
                notice.integer("subscription", Int64(subscription), into: &bytes)
                notice.value("tweet", tweet, into: &bytes)
            }
        }
    }

    struct DeletionNotice: Encodable {
        let subscription: Int
        let id: Int64
    }

    struct LagNotice: Encodable {
        let subscription: Int
        let resumeFrom: Int64
    }
}
