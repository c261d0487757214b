import JSONRPC
import TwitterCore

/// Mastodon's Notification entity (https://docs.joinmastodon.org/entities/Notification/) from one of ours, and
/// the mapping between our kinds and Mastodon's types.
enum MastodonNotification {
    /// Mastodon's type of one of our kinds: a reply is a `mention` there, a like a `favourite`, a repost a
    /// `reblog`.
    static func type(of kind: ActivityNotification.Kind) -> String {
        switch kind {
        case .mention, .reply: "mention"
        case .follow: "follow"
        case .like: "favourite"
        case .repost: "reblog"
        case .quote: "quote"
        case .adminReport: "admin.report"
        }
    }

    /// Our kinds that Mastodon's `types` name: `mention` is both our mentions and our replies; a type we never make
    /// (`poll`, `follow_request`, `update`...) names none.
    static func kinds(of types: [String]) -> Set<ActivityNotification.Kind> {
        Set(ActivityNotification.Kind.allCases.filter { types.contains(type(of: $0)) })
    }

    /// Appends the Notification's JSON; URLs start with `origin`.
    static func write(_ notification: ActivityNotification, origin: String, into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.stringID("id", notification.id, into: &bytes)
            object.string("type", type(of: notification.type), into: &bytes)
            object.timestamp("created_at", notification.createdAt, into: &bytes)
            object.string("group_key", "ungrouped-" + String(notification.id), into: &bytes)
            object.raw("account", into: &bytes) {
                MastodonAccount(username: notification.from.username).write(origin: origin, into: &$0)
            }
            object.raw("status", into: &bytes) { bytes in
                if let tweet = notification.tweet {
                    MastodonStatus.write(tweet, origin: origin, into: &bytes)
                } else {
                    bytes.append(contentsOf: "null".utf8)
                }
            }
            object.null("report", into: &bytes)
        }
    }
}
