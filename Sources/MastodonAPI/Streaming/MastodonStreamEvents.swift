import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// One Mastodon streaming event: its name and its payload, the JSON text SSE writes after `data: ` and a
/// WebSocket message carries as the string `payload`.
public struct MastodonStreamEvent: Sendable, Equatable {
    /// The layer's subscription the line belonged to, so a WebSocket with several streams finds its stream.
    public var subscription: Int
    /// `update`, `delete`, `notification` or `conversation`.
    public var event: String
    /// The payload's JSON: a Status, a Notification or a Conversation; for `delete`, the id as a JSON string.
    public var payload: [UInt8]
}

/// What one of the layer's notification lines is to a Mastodon stream.
public enum MastodonStreamLine: Sendable, Equatable {
    /// An event to send.
    case event(MastodonStreamEvent)
    /// The subscriber fell behind and the layer ended the subscription: close the stream, so the client fetches
    /// again (as Mastodon clients do after a reconnect).
    case lagged(subscription: Int)
    /// Nothing for this stream: another kind of line, or a tweet a hashtag stream does not carry.
    case ignored
}

/// Turns the layer's notification lines (`tweets.new`, `tweets.deleted`, `notifications.new`, `messages.new` and
/// the `*.lagged` ones) into Mastodon's streaming events; `MastodonStream.subscribe` starts them.
public enum MastodonStreamEvents {
    /// The event `line` (one JSON-RPC notification, as the session delivers it) is for `stream`, seen by the
    /// account `caller` (left out of a conversation's accounts); URLs start with `origin`.
    public static func translate(line: [UInt8], stream: MastodonStream, caller: String, origin: String)
        -> MastodonStreamLine
    {
        guard let notification = try? JSONParser(maximumDepth: 512).parse(line),
            case .string(let method)? = notification["method"], let params = notification["params"]
        else { return .ignored }
        let decoder = JSONValueDecoder()
        switch method {
        case API.Tweets.new.name:
            guard let new = try? decoder.decode(API.Tweets.NewTweet.self, from: params) else { return .ignored }
            if case .hashtag(let tag) = stream, !carries(new.tweet, tag: tag) { return .ignored }
            var payload: [UInt8] = []
            MastodonStatus.write(new.tweet, origin: origin, into: &payload)
            return .event(MastodonStreamEvent(subscription: new.subscription, event: "update", payload: payload))
        case API.Tweets.deleted.name:
            guard let deleted = try? decoder.decode(API.Tweets.TweetDeleted.self, from: params) else {
                return .ignored
            }
            var payload: [UInt8] = []
            JSONValue.writeString(String(deleted.id), into: &payload)
            return .event(MastodonStreamEvent(subscription: deleted.subscription, event: "delete", payload: payload))
        case API.Notifications.new.name:
            guard let new = try? decoder.decode(API.Notifications.New.self, from: params) else { return .ignored }
            var payload: [UInt8] = []
            MastodonNotification.write(new.notification, origin: origin, into: &payload)
            return .event(
                MastodonStreamEvent(subscription: new.subscription, event: "notification", payload: payload))
        case API.Messages.new.name:
            guard let new = try? decoder.decode(API.Messages.New.self, from: params),
                let conversationID = new.message.conversationId, let sender = new.message.sender
            else { return .ignored }
            // The line carries the message alone: the conversation as far as it shows, its sender and the new
            // message; a client fetches `/api/v1/conversations` for the rest.
            let fromCaller = sender.username.lowercased() == caller.lowercased()
            let conversation = API.Messages.Conversation(
                id: conversationID,
                participants: [API.Messages.Participant(id: sender.id, username: sender.username)],
                lastMessage: new.message, unreadCount: fromCaller ? 0 : 1,
                updatedAt: new.message.createdAt ?? .distantPast)
            var payload: [UInt8] = []
            MastodonConversation.write(conversation, caller: caller, origin: origin, into: &payload)
            return .event(
                MastodonStreamEvent(subscription: new.subscription, event: "conversation", payload: payload))
        case API.Tweets.lagged.name, API.Notifications.lagged.name, API.Messages.lagged.name:
            guard let lagged = try? decoder.decode(API.Tweets.Lagged.self, from: params) else { return .ignored }
            return .lagged(subscription: lagged.subscription)
        default:
            return .ignored
        }
    }

    /// Whether `tweet` (or a repost's original) carries `tag`, case and width aside as our tags are.
    private static func carries(_ tweet: Tweet, tag: String) -> Bool {
        let wanted = tag.lowercased()
        let shown = tweet.repostOf ?? tweet
        return shown.entities.hashtags.contains { $0.tag.lowercased() == wanted }
    }
}
