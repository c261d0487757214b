import JSONRPC
import TwitterAPI

/// One of Mastodon's streams (https://docs.joinmastodon.org/methods/streaming/), by the name a client gives it
/// in the SSE path (`/api/v1/streaming/user`) or a WebSocket subscribe message (`{"stream":"user"}`).
public enum MastodonStream: Sendable, Hashable {
    /// `user`: the home timeline and the caller's notifications.
    case user
    /// `user:notification`: the caller's notifications alone.
    case userNotifications
    /// `public` (and `public:local`, every account being local): every tweet.
    case everyone
    /// `hashtag` (and `hashtag:local`): the tweets carrying a tag.
    case hashtag(String)
    /// `list`: a list's members' tweets.
    case list(Int64)
    /// `direct`: the caller's direct messages, as conversations.
    case direct

    /// The stream `name` names, with its `tag` or `list` param; nil for a stream we do not serve (remote ones,
    /// media ones) or a missing or bad param.
    public init?(name: String, tag: String? = nil, list: String? = nil) {
        switch name {
        case "user": self = .user
        case "user:notification": self = .userNotifications
        case "public", "public:local": self = .everyone
        case "hashtag", "hashtag:local":
            guard let tag, !tag.isEmpty else { return nil }
            self = .hashtag(tag.hasPrefix("#") ? String(tag.dropFirst()) : tag)
        case "list":
            guard let list, let id = Int64(list), id > 0 else { return nil }
            self = .list(id)
        case "direct": self = .direct
        default: return nil
        }
    }

    /// What a WebSocket message's `stream` member says of it: `["user"]`, `["hashtag", "tag"]`, `["list", "5"]`.
    public var names: [String] {
        switch self {
        case .user: ["user"]
        case .userNotifications: ["user:notification"]
        case .everyone: ["public"]
        case .hashtag(let tag): ["hashtag", tag]
        case .list(let id): ["list", String(id)]
        case .direct: ["direct"]
        }
    }

    /// Starts the layer's subscriptions the stream needs, on the caller's session (whose notification lines then
    /// carry its events), and returns their ids: each line names the subscription it belongs to.
    public func subscribe(with caller: any MastodonCaller) async throws(RPCError) -> [Int] {
        switch self {
        case .user:
            let home = try await caller.call(API.Timelines.subscribe, .init(timeline: "home")).subscription
            let notifications = try await caller.call(API.Notifications.subscribe, .init()).subscription
            return [home, notifications]
        case .userNotifications:
            return [try await caller.call(API.Notifications.subscribe, .init()).subscription]
        case .everyone, .hashtag:
            return [try await caller.call(API.Timelines.subscribe, .init(timeline: "public")).subscription]
        case .list(let id):
            return [try await caller.call(API.Timelines.subscribe, .init(timeline: "list", listId: id)).subscription]
        case .direct:
            return [try await caller.call(API.Messages.subscribe).subscription]
        }
    }
}
