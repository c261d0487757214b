import TwitterCore

/// A key as the model sees it: the screen turns the terminal's codes into these.
public enum Key: Hashable, Sendable {
    /// A typed character (letters, digits, `?`, `/`, any text in the editor).
    case character(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Enter or Return.
    case enter
    /// Escape.
    case escape
    /// Backspace or Delete-left.
    case backspace
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Ctrl-C, read as a key: the terminal is in raw mode.
    case interrupt
}

/// The tabs along the top, by the digit that opens each.
public enum Tab: Int, CaseIterable, Sendable, Hashable {
    /// Home: the tweets of the people one follows, or the public timeline until one follows someone.
    case home = 1
    /// Notifications, with the unread count as the badge.
    case notifications = 2
    /// Direct messages: shown only when the daemon has them (`messages.conversations` in `rpc.discover`).
    case messages = 3
    /// Search results of the last `/` query.
    case search = 4
    /// Everyone's tweets.
    case everyone = 5

    /// The tab's name.
    public var title: String {
        switch self {
        case .home: "Home"
        case .notifications: "Notifications"
        case .messages: "Messages"
        case .search: "Search"
        case .everyone: "Public"
        }
    }
}

/// What the daemon offers beyond the basics, read from `rpc.discover`: the TUI shows a tab or a key only when
/// its methods are there.
public struct Capabilities: Sendable, Equatable {
    /// Direct messages (`messages.conversations`, issue #35): the Messages tab.
    public var messages: Bool
    /// Bookmarks (`bookmarks.add`, issue #36): the `b` key.
    public var bookmarks: Bool
    /// Quotes (`tweets.quotes`, issue #36): the `Q` key.
    public var quotes: Bool
    /// The longest tweet, in grapheme clusters: the daemon's rule (`TweetText`).
    public var tweetLimit: Int

    /// Capabilities from the method names `rpc.discover` lists.
    public init(methods: Set<String>, tweetLimit: Int = TweetText().maximumLength) {
        messages = methods.contains("messages.conversations")
        bookmarks = methods.contains("bookmarks.add")
        quotes = methods.contains("tweets.quotes")
        self.tweetLimit = tweetLimit
    }
}
