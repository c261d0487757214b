/// The scopes an OAuth access token was granted, Mastodon's (https://docs.joinmastodon.org/api/oauth-scopes/):
/// `read`, `write`, `follow`, `push`, `profile` and the children of `read` and `write` (`read:statuses`, ...).
///
/// A method needs one child scope (`API.requiredScope`); a grant covers it when it holds that child, its parent
/// (`read` covers `read:statuses`), or `follow` for the follows, blocks and mutes that Mastodon's deprecated
/// `follow` scope still grants. Sessions and personal tokens have no scopes at all: they may do everything.
public struct OAuthScopes: Sendable, Equatable, Hashable {
    /// The granted scopes, each as written.
    public let names: Set<String>

    /// Every scope Mastodon knows; a grant or an app may name only these.
    public static let known: Set<String> = [
        "read", "write", "follow", "push", "profile",
        "read:accounts", "read:blocks", "read:bookmarks", "read:favourites", "read:filters", "read:follows",
        "read:lists", "read:mutes", "read:notifications", "read:search", "read:statuses",
        "write:accounts", "write:blocks", "write:bookmarks", "write:conversations", "write:favourites",
        "write:filters", "write:follows", "write:lists", "write:media", "write:mutes", "write:notifications",
        "write:reports", "write:statuses",
        "admin:read", "admin:write",
    ]

    /// What the deprecated `follow` scope still grants.
    static let followChildren: Set<String> = [
        "read:follows", "write:follows", "read:blocks", "write:blocks", "read:mutes", "write:mutes",
    ]

    /// Scopes from a space-separated list (`read write:statuses`), as OAuth spells them; nil when it names a
    /// scope Mastodon does not know. An empty list is no scope.
    public init?(parsing text: String) {
        let names = Set(text.split(whereSeparator: { $0 == " " || $0 == "+" || $0 == "," }).map(String.init))
        guard names.isSubset(of: Self.known) else { return nil }
        self.names = names
    }

    /// Exactly `names`.
    public init(_ names: Set<String>) {
        self.names = names
    }

    /// A requested list as the answer repeats it: its scopes in the order asked, once each, space-separated
    /// (Mastodon.py compares them with what it asked for).
    public static func repeated(_ text: String) -> String {
        var seen: Set<Substring> = []
        return text.split(whereSeparator: { $0 == " " || $0 == "+" || $0 == "," }).filter { seen.insert($0).inserted }
            .joined(separator: " ")
    }

    /// The space-separated list, sorted, as stored.
    public var text: String { names.sorted().joined(separator: " ") }

    /// Whether nothing is granted.
    public var isEmpty: Bool { names.isEmpty }

    /// Whether the grant lets a call needing `required` (a child scope such as `write:statuses`, or a top
    /// scope such as `push`) through.
    public func covers(_ required: String) -> Bool {
        if names.contains(required) { return true }
        // `profile` (Mastodon 4.3) is who the token's account is, which reading accounts includes.
        if required == "profile" { return names.contains("read") || names.contains("read:accounts") }
        if let colon = required.firstIndex(of: ":"), names.contains(String(required[..<colon])) { return true }
        return names.contains("follow") && Self.followChildren.contains(required)
    }

    /// Whether every scope of `other` is one this grant holds or covers: an app registered for `read write`
    /// may be granted `read:statuses`, not `follow`.
    public func includes(_ other: OAuthScopes) -> Bool {
        other.names.allSatisfy { covers($0) }
    }
}
