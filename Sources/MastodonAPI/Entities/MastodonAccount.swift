import Foundation
import JSONRPC
import TwitterCore

/// Mastodon's Account entity (https://docs.joinmastodon.org/entities/Account/), from what a twitterd answer says
/// of an account.
///
/// An account's Mastodon id is its username: every answer of the layer names accounts by username (a tweet's
/// author, a notification's actor, a page of people), and a username is what every method takes, so the id a client
/// got from any entity is one the next call can use. `acct` is the bare username, as for a Mastodon server's local
/// accounts. What an answer does not carry (counts on a tweet's author, the date an account was made) is 0 or null.
struct MastodonAccount: Sendable, Equatable {
    /// The username: the Mastodon id, `username` and `acct` alike.
    var username: String
    /// First and last name; the username when the answer has no names.
    var displayName: String
    /// The bio as plain text.
    var bio: String = ""
    /// When the account was made; nil when the answer did not say.
    var createdAt: Date?
    /// Followers.
    var followersCount = 0
    /// Follows.
    var followingCount = 0
    /// Tweets, replies and reposts.
    var statusesCount = 0
    /// For `verify_credentials`: the owner's view adds `source`.
    var isOwnView = false

    /// The account as a tweet or a message names it.
    init(_ name: AccountName) {
        username = name.username
        displayName = name.username
    }

    /// The account as a page of people shows it.
    init(_ summary: UserSummary) {
        username = summary.username
        displayName = Self.displayName(summary.firstName, summary.lastName, or: summary.username)
    }

    /// The account as `users.get` shows it: with its counts and bio.
    init(_ overview: UserOverview) {
        username = overview.username
        displayName = Self.displayName(overview.firstName, overview.lastName, or: overview.username)
        bio = overview.bio
        createdAt = overview.createdAt
        followersCount = overview.followersCount
        followingCount = overview.followingCount
        statusesCount = overview.tweetsCount
    }

    /// A bare username (a notification's actor).
    init(username: String) {
        self.username = username
        displayName = username
    }

    private static func displayName(_ first: String, _ last: String, or username: String) -> String {
        let name = [first, last].filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? username : name
    }

    /// Appends the Account's JSON; its URLs start with `origin`.
    func write(origin: String, into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { account, bytes in
            account.string("id", username, into: &bytes)
            account.string("username", username, into: &bytes)
            account.string("acct", username, into: &bytes)
            account.url("url", origin, "/@", username, into: &bytes)
            account.url("uri", origin, "/users/", username, into: &bytes)
            account.string("display_name", displayName, into: &bytes)
            account.string("note", bio.isEmpty ? "" : "<p>" + StatusContent.escaped(bio) + "</p>", into: &bytes)
            account.url("avatar", origin, Self.avatarPath, into: &bytes)
            account.url("avatar_static", origin, Self.avatarPath, into: &bytes)
            account.url("header", origin, Self.headerPath, into: &bytes)
            account.url("header_static", origin, Self.headerPath, into: &bytes)
            account.boolean("locked", false, into: &bytes)
            account.emptyArray("fields", into: &bytes)
            account.emptyArray("emojis", into: &bytes)
            account.boolean("bot", false, into: &bytes)
            account.boolean("group", false, into: &bytes)
            account.boolean("discoverable", true, into: &bytes)
            account.boolean("indexable", false, into: &bytes)
            account.boolean("noindex", false, into: &bytes)
            account.boolean("hide_collections", false, into: &bytes)
            account.boolean("memorial", false, into: &bytes)
            account.emptyArray("roles", into: &bytes)
            account.timestamp("created_at", createdAt, into: &bytes)
            account.null("last_status_at", into: &bytes)
            account.count("statuses_count", statusesCount, into: &bytes)
            account.count("followers_count", followersCount, into: &bytes)
            account.count("following_count", followingCount, into: &bytes)
            if isOwnView {
                account.raw("source", into: &bytes) { bytes in
                    JSONObjectWriter.write(into: &bytes) { source, bytes in
                        source.string("privacy", "public", into: &bytes)
                        source.boolean("sensitive", false, into: &bytes)
                        source.null("language", into: &bytes)
                        source.string("note", bio, into: &bytes)
                        source.emptyArray("fields", into: &bytes)
                        source.count("follow_requests_count", 0, into: &bytes)
                        source.boolean("hide_collections", false, into: &bytes)
                        source.boolean("discoverable", true, into: &bytes)
                        source.boolean("indexable", false, into: &bytes)
                    }
                }
            }
        }
    }

    /// Mastodon's own default pictures: twitterd keeps none, and clients want a URL.
    static let avatarPath: StaticString = "/avatars/original/missing.png"
    static let headerPath: StaticString = "/headers/original/missing.png"
}
