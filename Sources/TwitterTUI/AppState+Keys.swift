import TwitterCore

/// The key map: what each key does, as changes to the state and the calls it asks for. `KeyMap.help` lists the
/// same keys for `?`.
extension AppState {
    /// Handles `key` and returns the calls it needs.
    public mutating func handle(_ key: Key) -> [Effect] {
        if key == .interrupt {
            quitting = true
            return []
        }
        if editor != nil { return handleEditor(key) }
        if pages.last == .help {
            if key == .escape || key == .character("q") || key == .character("?") { pages.removeLast() }
            return []
        }
        message = nil
        switch key {
        case .down, .character("j"): currentList.move(by: 1)
        case .up, .character("k"): currentList.move(by: -1)
        case .pageDown: currentList.move(by: 10)
        case .pageUp: currentList.move(by: -10)
        case .home, .character("g"): currentList.top()
        case .end, .character("G"): currentList.bottom()
        case .enter: return open()
        case .escape: if !pages.isEmpty { pages.removeLast() }
        case .character("q"):
            if pages.isEmpty { quitting = true } else { pages.removeLast() }
        case .character("?"): pages.append(.help)
        case .character("n"): editor = Editor(purpose: .tweet, text: "")
        case .character("r"):
            guard let tweet = currentList.selection?.tweet else { return [] }
            editor = Editor(purpose: .reply(to: tweet), text: "@\(tweet.author.username) ")
        case .character("Q"):
            // Quotes plug in here once the daemon lists `tweets.quotes` (issue #36).
            guard capabilities.quotes, let tweet = currentList.selection?.tweet else { return [] }
            editor = Editor(purpose: .quote(of: tweet), text: "")
        case .character("/"): editor = Editor(purpose: .search, text: searchQuery)
        case .character("l"):
            guard let tweet = currentList.selection?.tweet else { return [] }
            return [.like(tweet.id, !tweet.likedByMe)]
        case .character("t"):
            guard let tweet = currentList.selection?.tweet else { return [] }
            return [.repost(tweet.id, !tweet.repostedByMe)]
        case .character("b"):
            // Bookmarks plug in here once the daemon lists `bookmarks.add` (issue #36).
            guard capabilities.bookmarks, let tweet = currentList.selection?.tweet else { return [] }
            return [.bookmark(tweet.id, !bookmarked.contains(tweet.id))]
        case .character("u"):
            guard let person = currentList.selection?.person else { return [] }
            pages.append(.profile(username: person, user: nil, list: ItemList()))
            return [.loadProfile(person)]
        case .character("f"):
            guard case .profile(let name, let user?, _)? = pages.last else { return [] }
            return [.follow(name, !user.followedByMe)]
        case .character("R"): return refresh()
        case .character(let digit) where digit.wholeNumberValue.flatMap(Tab.init(rawValue:)) != nil:
            guard let tab = digit.wholeNumberValue.flatMap(Tab.init(rawValue:)), visibleTabs.contains(tab) else {
                return []
            }
            return select(tab)
        default: break
        }
        return []
    }

    /// Shows `tab` over any open page, loading it the first time.
    public mutating func select(_ tab: Tab) -> [Effect] {
        pages = []
        self.tab = tab
        var effects: [Effect] = []
        if tab != .search, (lists[tab] ?? ItemList()).phase == .idle {
            lists[tab, default: ItemList()].phase = .loading
            effects.append(.load(tab))
        }
        if tab == .notifications { effects += markNotificationsRead() }
        if tab == .search && searchQuery.isEmpty { editor = Editor(purpose: .search, text: "") }
        return effects
    }

    /// Marks every shown notification read: they were seen on the Notifications tab.
    mutating func markNotificationsRead() -> [Effect] {
        guard let list = lists[.notifications], let newest = list.items.first?.id, unreadNotifications > 0 else {
            return []
        }
        unreadNotifications = 0
        return [.markRead(upTo: newest)]
    }

    private mutating func open() -> [Effect] {
        guard let item = currentList.selection else { return [] }
        if case .notification(let notification) = item, notification.tweet == nil {
            pages.append(.profile(username: notification.from.username, user: nil, list: ItemList()))
            return [.loadProfile(notification.from.username)]
        }
        guard let tweet = item.tweet else { return [] }
        var list = ItemList()
        list.phase = .loading
        pages.append(.thread(focus: tweet.id, list: list))
        return [.loadThread(tweet.id)]
    }

    private mutating func refresh() -> [Effect] {
        switch pages.last {
        case .thread(let focus, _)?: return [.loadThread(focus)]
        case .profile(let name, _, _)?: return [.loadProfile(name)]
        case .help?: return []
        case nil:
            if tab == .search {
                return searchQuery.isEmpty ? [] : [.load(.search)]
            }
            lists[tab, default: ItemList()].phase = .loading
            return [.load(tab)]
        }
    }

    private mutating func handleEditor(_ key: Key) -> [Effect] {
        guard var editor, !editor.sending else { return [] }
        switch key {
        case .escape:
            self.editor = nil
            return []
        case .backspace:
            if !editor.text.isEmpty { editor.text.removeLast() }
            editor.error = nil
        case .character(let character):
            editor.text.append(character)
            editor.error = nil
        case .enter:
            switch editor.purpose {
            case .search:
                let query = editor.text.trimmingCharacters(in: .whitespaces)
                self.editor = nil
                guard !query.isEmpty else { return [] }
                searchQuery = query
                pages = []
                tab = .search
                lists[.search, default: ItemList()].phase = .loading
                return [.load(.search)]
            case .tweet, .reply:
                editor.sending = true
                var replyTo: Int64?
                if case .reply(let tweet) = editor.purpose { replyTo = tweet.id }
                self.editor = editor
                return [.post(text: editor.text, inReplyTo: replyTo)]
            case .quote(let tweet):
                editor.sending = true
                self.editor = editor
                return [.quote(text: editor.text, of: tweet.id)]
            }
        default: break
        }
        self.editor = editor
        return []
    }
}

/// The keys, as `?` lists them.
public enum KeyMap {
    /// Key and what it does, in the order shown. Messages and bookmarks only when the daemon has them.
    public static func help(_ capabilities: Capabilities) -> [(keys: String, action: String)] {
        var keys: [(String, String)] = [
            ("j k ↓ ↑", "move down, up"),
            ("g G", "top (shows what is new), bottom"),
            ("Enter", "open the selected tweet's thread"),
            ("Esc q", "back; q on a tab quits"),
            ("n", "compose a tweet (Enter sends, Esc cancels)"),
            ("r", "reply to the selected tweet"),
            ("l", "like or unlike"),
            ("t", "repost or un-repost"),
        ]
        if capabilities.bookmarks { keys.append(("b", "bookmark or un-bookmark")) }
        if capabilities.quotes { keys.append(("Q", "quote the selected tweet (text optional)")) }
        keys += [
            ("u", "the author's profile (f follows or unfollows)"),
            ("/", "search (from:alice #tag \"exact words\" -word)"),
            ("R", "refresh"),
            capabilities.messages
                ? ("1 2 3 4 5", "Home, Notifications, Messages, Search, Public")
                : ("1 2 4 5", "Home, Notifications, Search, Public"),
            ("?", "this help"),
            ("Ctrl-C", "quit"),
        ]
        return keys
    }
}
