import Foundation
import TwitterCore

/// Everything the screen shows, as a value: keys and the daemon's answers change it (`handle(_:)`,
/// `apply(_:)`), and `Renderer` draws it. Nothing here touches the terminal or the socket.
public struct AppState: Sendable, Equatable {
    /// A page opened over the tabs; `Esc` or `q` closes the top one.
    public enum Page: Sendable, Equatable {
        /// A tweet's thread as a tree, the tweet it was opened on marked.
        case thread(focus: Int64, list: ItemList)
        /// A person: their profile and their tweets; `f` follows or unfollows.
        case profile(username: String, user: UserOverview?, list: ItemList)
        /// The keys.
        case help
    }

    /// The line at the bottom where one types.
    public struct Editor: Sendable, Equatable {
        /// What the text is for.
        public enum Purpose: Sendable, Equatable {
            /// A new tweet.
            case tweet
            /// A reply to this tweet.
            case reply(to: Tweet)
            /// A quote of this tweet: the text may be empty.
            case quote(of: Tweet)
            /// A search query (the language of `search.tweets`).
            case search
        }

        /// What the text is for.
        public var purpose: Purpose
        /// What has been typed.
        public var text: String
        /// The daemon's refusal, shown until the text changes.
        public var error: String?
        /// Sent and waiting for the answer.
        public var sending = false
    }

    /// The link to the daemon.
    public enum Link: Sendable, Equatable {
        /// Connecting for the first time.
        case connecting
        /// Connected and logged in.
        case connected
        /// Gone; the client is trying again. The message says why it went.
        case lost(String)
    }

    /// The socket, shown in the status line.
    public var socket: String
    /// `@name` once logged in.
    public var account: String?
    /// What the daemon offers.
    public var capabilities = Capabilities(methods: [])
    /// The link to the daemon.
    public var link = Link.connecting
    /// The tab shown when no page is open.
    public var tab = Tab.home
    /// Each tab's list.
    public var lists: [Tab: ItemList] = [:]
    /// Unread notifications: the Notifications tab's badge.
    public var unreadNotifications = 0
    /// Unread direct messages over every conversation: the Messages tab's badge.
    public var unreadMessages: Int {
        (lists[.messages]?.items ?? []).reduce(0) { total, item in
            if case .conversation(let line) = item { total + line.unread } else { total }
        }
    }
    /// Pages opened over the tabs, the top one shown.
    public var pages: [Page] = []
    /// The editor, while composing or searching.
    public var editor: Editor?
    /// The last search.
    public var searchQuery = ""
    /// Home shows the public timeline until the reader follows someone.
    public var homeIsPublic = false
    /// A line of news or of trouble above the status line.
    public var message: (text: String, isError: Bool)? {
        get { messageText.map { ($0, messageIsError) } }
        set {
            messageText = newValue?.text
            messageIsError = newValue?.isError ?? false
        }
    }
    private var messageText: String?
    private var messageIsError = false
    /// Tweets bookmarked in this session (bookmarks, once the daemon has them).
    public var bookmarked: Set<Int64> = []
    /// Set by `q` on a tab or Ctrl-C: the screen ends.
    public var quitting = false
    /// The time ages are counted from; the screen sets it before drawing.
    public var now = Date()

    /// A screen for `socket`, connecting.
    public init(socket: String) {
        self.socket = socket
    }

    /// The tabs shown, in order: Messages only when the daemon has direct messages.
    public var visibleTabs: [Tab] {
        Tab.allCases.filter { $0 != .messages || capabilities.messages }
    }

    /// The list the keys move in: the top page's, else the tab's.
    public var currentList: ItemList {
        get {
            switch pages.last {
            case .thread(_, let list)?, .profile(_, _, let list)?: list
            case .help?, nil: lists[tab] ?? ItemList()
            }
        }
        set {
            switch pages.last {
            case .thread(let focus, _)?: pages[pages.count - 1] = .thread(focus: focus, list: newValue)
            case .profile(let name, let user, _)?:
                pages[pages.count - 1] = .profile(username: name, user: user, list: newValue)
            case .help?: break
            case nil: lists[tab] = newValue
            }
        }
    }

    /// Applies `change` to tweet `id` wherever it is shown.
    mutating func updateTweet(_ id: Int64, _ change: (inout Tweet) -> Void) {
        for tab in lists.keys { lists[tab]?.updateTweet(id, change) }
        pages = pages.map { page in
            switch page {
            case .thread(let focus, var list):
                list.updateTweet(id, change)
                return .thread(focus: focus, list: list)
            case .profile(let name, let user, var list):
                list.updateTweet(id, change)
                return .profile(username: name, user: user, list: list)
            case .help: return page
            }
        }
    }
}
