import JSONRPC
import TwitterCore

/// Mastodon's List entity (https://docs.joinmastodon.org/entities/List/) from one of ours: the name is the title.
/// Our lists show every member's tweets and reposts, so `replies_policy` is `list`; none is exclusive.
enum MastodonList {
    /// Appends the List's JSON.
    static func write(_ list: UserList, into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.stringID("id", list.id, into: &bytes)
            object.string("title", list.name, into: &bytes)
            object.string("replies_policy", "list", into: &bytes)
            object.boolean("exclusive", false, into: &bytes)
        }
    }
}
