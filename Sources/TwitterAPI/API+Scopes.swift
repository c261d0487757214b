import JSONRPC

extension API {
    /// The OAuth scope (Mastodon's, https://docs.joinmastodon.org/api/oauth-scopes/) a login resting on an OAuth
    /// access token needs to call each logged-in method, declared here once beside the methods as their rates
    /// are; the request layer's scope middleware enforces it and the daemon checks at start that every logged-in
    /// method is either listed or meant for full logins only (`fullLoginOnly`). Sessions and personal tokens have
    /// every scope. `profile` is met by `profile`, `read` or `read:accounts`.
    public static let requiredScopes: [String: String] = [
        "auth.whoami": "profile", "auth.logout": "profile", "oauth.apps.current": "profile",
        "account.export": "read:accounts",
        "profile.get": "read:accounts", "profile.update": "write:accounts",
        "profile.pin": "write:accounts", "profile.unpin": "write:accounts",
        "users.get": "read:accounts", "users.followers": "read:accounts", "users.following": "read:accounts",
        "users.follow": "write:follows", "users.unfollow": "write:follows",
        "users.mute": "write:mutes", "users.unmute": "write:mutes", "users.muted": "read:mutes",
        "users.block": "write:blocks", "users.unblock": "write:blocks", "users.blocked": "read:blocks",
        "tweets.post": "write:statuses", "tweets.delete": "write:statuses",
        "tweets.repost": "write:statuses", "tweets.unrepost": "write:statuses",
        "tweets.like": "write:favourites", "tweets.unlike": "write:favourites",
        "tweets.get": "read:statuses", "tweets.fetch": "read:statuses", "tweets.thread": "read:statuses",
        "tweets.quotes": "read:statuses", "tweets.likedBy": "read:statuses",
        "tweets.repostedBy": "read:statuses", "tweets.liked": "read:favourites",
        "tweets.subscribe": "read:statuses", "tweets.unsubscribe": "read:statuses",
        "timeline.home": "read:statuses", "timeline.user": "read:statuses", "timeline.list": "read:lists",
        "timeline.public": "read:statuses", "timeline.subscribe": "read:statuses",
        "tags.tweets": "read:statuses", "tags.trending": "read:statuses",
        "search.tweets": "read:search", "search.users": "read:search",
        "bookmarks.add": "write:bookmarks", "bookmarks.remove": "write:bookmarks", "bookmarks.list": "read:bookmarks",
        "lists.create": "write:lists", "lists.update": "write:lists", "lists.delete": "write:lists",
        "lists.add": "write:lists", "lists.remove": "write:lists",
        "lists.get": "read:lists", "lists.mine": "read:lists", "lists.of": "read:lists", "lists.members": "read:lists",
        "notifications.list": "read:notifications", "notifications.unreadCount": "read:notifications",
        "notifications.subscribe": "read:notifications", "notifications.markRead": "write:notifications",
        "notifications.dismiss": "write:notifications", "notifications.clear": "write:notifications",
        "messages.send": "write:conversations", "messages.markRead": "write:conversations",
        "messages.delete": "write:conversations", "messages.leave": "write:conversations",
        "messages.conversations": "read:statuses", "messages.list": "read:statuses",
        "messages.unreadCount": "read:statuses", "messages.subscribe": "read:statuses",
        "messages.unsubscribe": "read:statuses",
        "reports.create": "write:reports",
        "admin.users.list": "admin:read", "admin.reports.list": "admin:read", "admin.audit.list": "admin:read",
        "admin.users.suspend": "admin:write", "admin.users.unsuspend": "admin:write",
        "admin.users.resetPassword": "admin:write", "admin.tweets.delete": "admin:write",
        "admin.reports.resolve": "admin:write", "admin.roles.grant": "admin:write", "admin.roles.revoke": "admin:write",
    ]

    /// Logged-in methods no OAuth access token may call, whatever its scopes: they manage the account's
    /// credentials (a token never mints or changes what logs in) or end the account.
    public static let fullLoginOnly: Set<String> = [
        "auth.changePassword", "auth.linkPeer", "auth.unlinkPeer", "auth.peerLinks",
        "tokens.create", "tokens.list", "tokens.revoke", "account.delete", "oauth.authorize",
    ]
}
