import JSONRPC
import TwitterCore

/// Mastodon's Relationship entity (https://docs.joinmastodon.org/entities/Relationship/) from `users.get`'s view of
/// how an account relates to the caller. Follow requests, notifying, endorsements and domain blocks do not exist
/// here: false.
enum MastodonRelationship {
    /// Appends the Relationship of the caller to `account`.
    static func write(_ account: UserOverview, into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.string("id", account.username, into: &bytes)
            object.boolean("following", account.followedByMe, into: &bytes)
            object.boolean("showing_reblogs", account.followedByMe, into: &bytes)
            object.boolean("notifying", false, into: &bytes)
            object.emptyArray("languages", into: &bytes)
            object.boolean("followed_by", account.followsMe, into: &bytes)
            object.boolean("blocking", account.blockedByMe, into: &bytes)
            object.boolean("blocked_by", false, into: &bytes)
            object.boolean("muting", account.mutedByMe, into: &bytes)
            object.boolean("muting_notifications", account.mutedByMe, into: &bytes)
            object.boolean("requested", false, into: &bytes)
            object.boolean("requested_by", false, into: &bytes)
            object.boolean("domain_blocking", false, into: &bytes)
            object.boolean("endorsed", false, into: &bytes)
            object.string("note", "", into: &bytes)
        }
    }
}
