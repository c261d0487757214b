import JSONRPC
import TwitterAPI
import TwitterCore

/// `notifications.*`: what others did that concerns you, listed, counted, marked read, removed and streamed live.
struct NotificationMethods: MethodGroup {
    let services: TweetServices

    func register(in router: inout Router<RequestContext>) {
        let (services, store) = (services, services.notifications)
        router.register(
            API.Notifications.list, in: .loggedIn,
            { (params: API.Notifications.ListParams, context) in
                let reader = context.userID
                let query = NotificationQuery(
                    sinceID: params.sinceId, maxID: params.maxId, limit: API.PageSize.tweets.limit(params.limit),
                    types: params.types.map(Set.init))
                let found = try await services.access.notifications(of: reader, query, in: store)
                return API.Notifications.Page(
                    notifications: try await services.marked(found.notifications, for: reader), unread: found.unread)
            })
        router.register(
            API.Notifications.markRead, in: .loggedIn,
            { (params: API.Notifications.MarkReadParams, context) in
                let reader = context.userID
                return API.Notifications.Unread(
                    unread: try await services.access.markRead(of: reader, upTo: params.upToId, in: store))
            })
        router.register(
            API.Notifications.dismiss, in: .loggedIn,
            { (params: API.Notifications.DismissParams, context) in
                let reader = context.userID
                guard try await store.dismiss(params.id, of: reader) else {
                    throw TwitterError.notFound("Notification \(params.id)")
                }
                return API.Notifications.Unread(unread: try await services.access.unreadCount(of: reader, in: store))
            })
        router.register(
            API.Notifications.clear, in: .loggedIn,
            { (_: NoParams, context) in
                let reader = context.userID
                try await store.clear(of: reader)
                return API.Notifications.Unread(unread: try await services.access.unreadCount(of: reader, in: store))
            })
        router.register(
            API.Notifications.unreadCount, in: .loggedIn,
            { (_: NoParams, context) in
                let reader = context.userID
                return API.Notifications.Unread(unread: try await services.access.unreadCount(of: reader, in: store))
            })
        router.register(
            API.Notifications.subscribe, in: .loggedIn,
            { (params: API.Notifications.SubscribeParams, context) in
                let reader = context.userID
                // What was answered before this call is delivered before the subscription joins.
                await services.feed.waitUntilApplied()
                let subscription = services.feed.hub.subscribeToNotifications(
                    of: reader, capacity: TweetServices.subscriberCapacity)
                return try await context.session.subscribe(subscription) { id in
                    NotificationForwarder(
                        id: id, subscription: subscription, sinceID: params.sinceId, recipient: reader,
                        services: services, capacity: TweetServices.subscriberCapacity)
                }
            })
    }
}

extension TweetServices {
    /// `notifications`, already those the reader may see (`TweetAccess`), each tweet with the reader's marks and
    /// its quoted tweet as the reader may see it.
    func marked(_ kept: [ActivityNotification], for reader: Int64) async throws -> [ActivityNotification] {
        guard kept.contains(where: { $0.tweet != nil }) else { return kept }
        let marks = try await feed.marks.marks(of: reader, store: likes)
        let tweets = try await feed.quoting(
            kept.compactMap(\.tweet).map(marks.applied), for: reader, marks: marks, stores: readStores)
        var shown: [Int64: Tweet] = [:]
        for tweet in tweets { shown[tweet.id] = tweet }
        return kept.map { notification in
            var marked = notification
            marked.tweet = notification.tweet.map { shown[$0.id] ?? marks.applied(to: $0) }
            return marked
        }
    }
}
