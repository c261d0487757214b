import TwitterCore

/// What the daemon's answers and live notifications do to the state.
extension AppState {
    /// Applies `event` and returns any calls it leads to.
    public mutating func apply(_ event: Event) -> [Effect] {
        switch event {
        case .connected(let account, let capabilities):
            self.account = account
            self.capabilities = capabilities
            let wasLost = link != .connecting
            link = .connected
            if wasLost { message = ("reconnected; caught up", false) }
            if !visibleTabs.contains(tab) { tab = .home }
            // Load (or reload, to catch up) every tab that has been shown, and the badge's notifications.
            var effects: [Effect] = []
            for tab in [Tab.home, .notifications, .everyone] where tab == self.tab || lists[tab] != nil {
                lists[tab, default: ItemList()].phase = .loading
                effects.append(.load(tab))
            }
            if !effects.contains(.load(.notifications)) { effects.append(.load(.notifications)) }
            // The Messages tab's badge: the conversations and their unread counts.
            if capabilities.messages && !effects.contains(.load(.messages)) { effects.append(.load(.messages)) }
            if !searchQuery.isEmpty { effects.append(.load(.search)) }
            return effects
        case .disconnected(let reason):
            link = .lost(reason)
            if editor?.sending == true { editor?.sending = false }
        case .timeline(let tab, let tweets, let homeIsPublic):
            if tab == .home { self.homeIsPublic = homeIsPublic }
            noteBookmarks(tweets)
            lists[tab, default: ItemList()].replace(with: tweets.map { .tweet($0) })
        case .notifications(let notifications, let unread):
            lists[.notifications, default: ItemList()].replace(with: notifications.map(Item.notification))
            unreadNotifications = unread
            if tab == .notifications && pages.isEmpty { return markNotificationsRead() }
        case .searchResults(let query, let tweets):
            guard query == searchQuery else { return [] }
            noteBookmarks(tweets)
            lists[.search, default: ItemList()].replace(with: tweets.map { .tweet($0) })
        case .thread(let focus, let items):
            for (index, page) in pages.enumerated() {
                guard case .thread(focus, var list) = page else { continue }
                list.replace(with: items)
                if let marked = items.firstIndex(where: { if case .tweet(_, _, true) = $0 { true } else { false } }) {
                    list.selected = marked
                }
                pages[index] = .thread(focus: focus, list: list)
            }
        case .profile(let user, let tweets):
            noteBookmarks(tweets)
            for (index, page) in pages.enumerated() {
                guard case .profile(let name, _, var list) = page, name.lowercased() == user.username.lowercased()
                else { continue }
                list.replace(with: tweets.map { .tweet($0) })
                pages[index] = .profile(username: name, user: user, list: list)
            }
        case .newTweet(let tab, let tweet):
            noteBookmarks([tweet])
            lists[tab, default: ItemList()].receive([.tweet(tweet)])
        case .tweetDeleted(let id):
            for tab in lists.keys { lists[tab]?.removeTweet(id) }
        case .conversations(let lines):
            lists[.messages, default: ItemList()].replace(with: lines.map(Item.conversation))
        case .newMessage(let id, let people, let sender, let text, let at):
            var list = lists[.messages, default: ItemList()]
            var line =
                list.items.lazy.compactMap { if case .conversation(let line) = $0, line.id == id { line } else { nil } }
                .first ?? ConversationLine(id: id, people: people, unread: 0, updatedAt: at)
            line.lastSender = sender
            line.lastText = text
            line.updatedAt = at
            if sender.lowercased() != account?.lowercased() { line.unread += 1 }
            // Most recent activity first: the conversation moves to the top.
            list.items.removeAll { $0.id == id }
            list.pending.removeAll { $0.id == id }
            list.receive([.conversation(line)])
            lists[.messages] = list
        case .newNotification(let notification):
            // Already on the page (the page was read after it was committed, and the stream delivered it after):
            // counted once. On a database shared by two daemons the stream's copy came after the page.
            let item = Item.notification(notification)
            let list = lists[.notifications] ?? ItemList()
            guard !(list.items + list.pending).contains(where: { $0.id == item.id }) else { return [] }
            lists[.notifications, default: ItemList()].receive([item])
            if tab == .notifications && pages.isEmpty {
                return [.markRead(upTo: notification.id)]
            }
            unreadNotifications += 1
        case .posted(let tweet):
            editor = nil
            let verb = tweet.quoteOfID != nil ? "quoted with" : tweet.inReplyToID == nil ? "posted" : "replied with"
            message = ("\(verb) #\(tweet.id)", false)
            // A sent tweet is in home at once, the subscription's copy of it is then known and left out.
            var home = lists[.home] ?? ItemList()
            home.items.removeAll { $0.id == tweet.id }
            home.items.insert(.tweet(tweet), at: 0)
            if home.selected > 0 || pages.isEmpty == false { home.selected += 1 }
            if home.phase == .idle { home.phase = .loaded }
            lists[.home] = home
            if pages.isEmpty && tab == .home { lists[.home]?.selected = 0 }
        case .postRefused(let reason):
            editor?.sending = false
            editor?.error = reason
        case .liked(let id, let liked, let count):
            updateTweet(id) {
                $0.likedByMe = liked
                $0.counts.likes = count
            }
        case .reposted(let id, let reposted):
            updateTweet(id) {
                if $0.repostedByMe != reposted { $0.counts.reposts += reposted ? 1 : -1 }
                $0.repostedByMe = reposted
            }
        case .followed(let name, let following):
            for (index, page) in pages.enumerated() {
                guard case .profile(let shown, var user?, let list) = page, shown.lowercased() == name.lowercased()
                else { continue }
                if user.followedByMe != following { user.followersCount += following ? 1 : -1 }
                user.followedByMe = following
                pages[index] = .profile(username: shown, user: user, list: list)
            }
            message = (following ? "following @\(name)" : "no longer following @\(name)", false)
            // Home shows everyone's tweets until one follows someone, and one's circle after: read it again.
            lists[.home, default: ItemList()].phase = .loading
            return [.load(.home)]
        case .bookmarked(let id, let on):
            if on { bookmarked.insert(id) } else { bookmarked.remove(id) }
            message = (on ? "bookmarked #\(id)" : "bookmark removed from #\(id)", false)
        case .failed(let reason):
            message = (reason, true)
            for tab in lists.keys where lists[tab]?.phase == .loading { lists[tab]?.phase = .failed(reason) }
        }
        return []
    }

    /// The tweets the reader had bookmarked before, as the daemon marks them (`bookmarkedByMe`), so `b` takes
    /// such a bookmark back rather than adding it again.
    mutating func noteBookmarks(_ tweets: [Tweet]) {
        for tweet in tweets where tweet.bookmarkedByMe { bookmarked.insert(tweet.id) }
    }
}
