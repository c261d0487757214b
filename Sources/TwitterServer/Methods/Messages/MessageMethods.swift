import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `messages.*`: private conversations. Texts are sealed here before the store sees them and opened here when
/// they are shown; who may write, read, delete or leave is `MessageRule`'s decision, applied by the store.
struct MessageMethods: MethodGroup {
    let services: MessageServices
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        let (services, store, lookup) = (services, services.store, lookup)
        router.register(
            API.Messages.send, in: .loggedIn,
            { (params: API.Messages.SendParams, context) in
                let sender = context.userID
                let body = try services.text.validated(params.text)
                try Self.keyRule.validate(params)
                let destination = try await Self.destination(params, sender: sender, lookup: lookup)
                let message = try await store.send(
                    MessageDraft(
                        destination: destination, seal: { [sealer = services.sealer] in sealer.seal(body, for: $0) },
                        senderID: sender, idempotencyKey: params.idempotencyKey))
                return try services.shown(message)
            })
        router.register(
            API.Messages.conversations, in: .loggedIn,
            { (params: API.Messages.ConversationsParams, context) in
                let reader = context.userID
                if let cursor = params.cursor, Int64(cursor) == nil {
                    throw TwitterError.invalidFields(["cursor": "is not a cursor this method gave"])
                }
                let page = try await store.conversations(
                    of: reader, limit: API.PageSize.search.limit(params.limit), cursor: params.cursor)
                return API.Messages.ConversationPage(
                    conversations: try page.conversations.map { summary throws(TwitterError) in
                        try services.shown(summary)
                    },
                    nextCursor: page.nextCursor)
            })
        router.register(
            API.Messages.list, in: .loggedIn,
            { (params: API.Messages.ListParams, context) in
                let reader = context.userID
                let limit = API.PageSize.messages.limit(params.limit)
                let found = try await store.messages(
                    in: params.conversationId, for: reader,
                    MessageQuery(limit: limit, maxID: params.maxId, sinceID: params.sinceId))
                return API.Messages.MessagePage(
                    messages: try found.map { message throws(TwitterError) in try services.shown(message) },
                    nextCursor: found.count == limit ? found.last?.id : nil)
            })
        router.register(
            API.Messages.markRead, in: .loggedIn,
            { (params: API.Messages.ConversationParams, context) in
                let reader = context.userID
                try await store.markRead(params.conversationId, by: reader)
                return API.Messages.Marked(unreadCount: try await store.unreadCount(of: reader))
            })
        router.register(
            API.Messages.unreadCount, in: .loggedIn,
            { (_: NoParams, context) in
                let reader = context.userID
                return API.Messages.UnreadCount(count: try await store.unreadCount(of: reader))
            })
        router.register(API.Messages.delete, in: .loggedIn) { params, context in
            let userID = context.userID
            try await store.delete(params.id, by: userID)
            return API.Tweets.Deleted(deleted: true)
        }
        router.register(API.Messages.leave, in: .loggedIn) { params, context in
            let userID = context.userID
            try await store.leave(params.conversationId, by: userID)
            return API.Messages.Left(left: true)
        }
        router.register(
            API.Messages.subscribe, in: .loggedIn,
            { (_: NoParams, context) in
                let reader = context.userID
                // What was answered before this call is delivered before the subscription joins: it is not news.
                await services.feed.waitUntilApplied()
                let subscription = services.feed.hub.subscribeToMessages(
                    of: reader, capacity: MessageServices.subscriberCapacity)
                return try await context.session.subscribe(subscription) { id in
                    MessageForwarder(id: id, subscription: subscription, services: services)
                }
            })
        router.register(
            API.Messages.unsubscribe, in: .loggedIn,
            { (params: API.Tweets.UnsubscribeParams, context) in
                return try context.session.unsubscribe(params.subscription)
            })
    }

    /// Where `params` send to: exactly one of `to` and `conversationId`, `to` naming 1 to 49 existing accounts.
    static func destination(_ params: API.Messages.SendParams, sender: Int64, lookup: UserLookup) async throws
        -> MessageDestination
    {
        switch (params.to, params.conversationId) {
        case (let names?, nil):
            guard (1...MessageDestination.maximumRecipients).contains(names.count) else {
                throw TwitterError.invalidFields(["to": "names 1 to \(MessageDestination.maximumRecipients) usernames"])
            }
            var ids: [Int64] = []
            for name in names { ids.append(try await lookup.id(of: name)) }
            let others = Set(ids).subtracting([sender])
            guard !others.isEmpty else { throw TwitterError.invalidFields(["to": "must name someone but you"]) }
            return .members(others.sorted())
        case (nil, let id?):
            return .conversation(id)
        default:
            throw TwitterError.invalidFields(["to": "give either to or conversationId"])
        }
    }

    static let keyRule = Validator<API.Messages.SendParams>.field(
        \.idempotencyKey, "idempotencyKey",
        .ifPresent(
            FreeText.validator(
                "Idempotency key", allowsNewlines: false,
                length: .length(
                    1...128, tooShort: "Idempotency key can not be empty",
                    tooLong: "Idempotency key is at most 128 characters")))
    )
}
