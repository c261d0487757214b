import TwitterAPI
import TwitterCore

extension ConnectionSession {
    /// Adds the stream `forwarder` makes as a subscription of this connection, once `prepare` has run (a home
    /// stream's follows read), and answers its id. When either fails (a connection holds a bounded number), the hub
    /// subscription `live` the forwarder would read ends here, since nothing else would end it.
    func subscribe(
        _ live: any LiveSubscription, forwarder: (_ id: Int) -> any StreamForwarding,
        preparing prepare: () async throws -> Void = {}
    ) async throws -> API.Tweets.Subscribed {
        do {
            try await prepare()
            return API.Tweets.Subscribed(subscription: try addSubscription(forwarder))
        } catch {
            live.cancel()
            throw error
        }
    }

    /// Ends subscription `id` of this connection; -32004 when it holds none of that id.
    func unsubscribe(_ id: Int) throws -> API.Tweets.Unsubscribed {
        guard cancelSubscription(id) else { throw TwitterError.notFound("Subscription \(id)") }
        return API.Tweets.Unsubscribed(unsubscribed: true)
    }
}
