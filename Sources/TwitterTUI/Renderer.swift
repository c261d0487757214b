import Foundation
import TwitterCore

/// Draws the state into a grid: the tab bar, a title line, the list or page, the editor or message line, and
/// the status line. Pure: the same state and size give the same cells.
public enum Renderer {
    /// The screen for `state` at `width` × `height`.
    public static func render(_ state: AppState, width: Int, height: Int) -> Grid {
        var grid = Grid(width: width, height: height)
        guard width > 0, height > 0 else { return grid }
        drawTabs(state, into: &grid)
        guard height >= 5 else { return grid }
        let bottom = drawBottom(state, into: &grid)
        drawTitle(state, into: &grid)
        let body = 2..<bottom
        switch state.pages.last {
        case .help?:
            drawHelp(state, rows: body, into: &grid)
        case .profile(let name, let user, let list)?:
            var rows = body
            if let user {
                rows = drawProfile(user, rows: body, into: &grid)
            } else if list.phase != .loaded {
                grid.put("loading @\(name)…", row: body.lowerBound, column: 2, style: .dim)
                return grid
            }
            drawList(list, state: state, rows: rows, into: &grid, empty: "No tweets yet.")
        case .thread(_, let list)?:
            drawList(list, state: state, rows: body, into: &grid, empty: "This tweet is not there.")
        case nil:
            drawList(state.currentList, state: state, rows: body, into: &grid, empty: emptyText(state))
        }
        return grid
    }

    // MARK: - Frame

    private static func drawTabs(_ state: AppState, into grid: inout Grid) {
        var column = 0
        for tab in state.visibleTabs {
            let current = state.pages.isEmpty && state.tab == tab
            column = grid.put(" ", row: 0, column: column)
            column = grid.put("\(tab.rawValue) \(tab.title)", row: 0, column: column, style: current ? .reverse : .bold)
            if tab == .notifications && state.unreadNotifications > 0 {
                column = grid.put(" \(state.unreadNotifications)", row: 0, column: column, style: .notice)
            }
            if tab == .messages && state.unreadMessages > 0 {
                column = grid.put(" \(state.unreadMessages)", row: 0, column: column, style: .notice)
            }
            if let pending = state.lists[tab]?.pending.count, pending > 0 {
                column = grid.put(" +\(pending)", row: 0, column: column, style: .notice)
            }
            column = grid.put(" ", row: 0, column: column)
        }
        let link: StyledRun? =
            switch state.link {
            case .connecting: StyledRun("connecting…", .dim)
            case .connected: nil
            case .lost: StyledRun("daemon gone · reconnecting…", .error)
            }
        if let link {
            let start = grid.width - DisplayWidth.of(link.text) - 1
            if start > column { grid.put(link.text, row: 0, column: start, style: link.style) }
        }
    }

    private static func drawTitle(_ state: AppState, into grid: inout Grid) {
        let title: String
        switch state.pages.last {
        case .help?: title = "Keys"
        case .thread(let focus, _)?: title = "Thread of #\(focus)"
        case .profile(let name, _, _)?: title = "@\(name)"
        case nil:
            switch state.tab {
            case .home: title = state.homeIsPublic ? "Home · everyone's tweets until you follow someone" : "Home"
            case .notifications: title = "Notifications"
            case .messages: title = "Messages"
            case .search: title = state.searchQuery.isEmpty ? "Search" : "Search: \(state.searchQuery)"
            case .everyone: title = "Public"
            }
        }
        var column = grid.put(" " + title + " ", row: 1, column: 0, style: .bold)
        let pending = state.currentList.pending.count
        if pending > 0 && state.pages.last != .help {
            column = grid.put(" \(pending) new · g to show ", row: 1, column: column + 1, style: [.notice, .reverse])
        }
        if column < grid.width {
            grid.put(String(repeating: "─", count: grid.width - column), row: 1, column: column, style: .dim)
        }
    }

    /// The editor or the message, and the status line; returns the first row they use.
    private static func drawBottom(_ state: AppState, into grid: inout Grid) -> Int {
        let statusRow = grid.height - 1
        let account = state.account.map { "@" + $0 } ?? "not logged in"
        let keys: String
        if let editor = state.editor {
            keys = editor.purpose == .search ? "Enter search · Esc cancel" : "Enter send · Esc cancel"
        } else {
            keys =
                "j/k move · Enter thread · n tweet · r reply · l like · t repost · u profile · / search · ? keys · q quit"
        }
        grid.put(" \(account) · \(state.socket) · \(keys)", row: statusRow, column: 0, style: .reverse)
        grid.addStyle(.reverse, row: statusRow)
        guard let editor = state.editor else {
            if let message = state.message {
                grid.put(" " + message.text, row: statusRow - 1, column: 0, style: message.isError ? .error : .notice)
            }
            return statusRow - 1
        }
        return drawEditor(editor, limit: state.capabilities.tweetLimit, above: statusRow, into: &grid)
    }

    private static func drawEditor(_ editor: AppState.Editor, limit: Int, above statusRow: Int, into grid: inout Grid)
        -> Int
    {
        let label: String
        switch editor.purpose {
        case .tweet: label = "New tweet"
        case .reply(let tweet): label = "Reply to @\(tweet.author.username)"
        case .quote(let tweet): label = "Quote @\(tweet.author.username)'s #\(tweet.id)"
        case .search: label = "Search"
        }
        var counter: StyledRun?
        if editor.purpose != .search {
            let count = editor.text.count  // grapheme clusters, as the daemon counts
            counter = StyledRun(" \(count)/\(limit) ", count > limit ? [.error, .bold] : .dim)
        }
        let textWidth = max(10, grid.width - 4)
        let lines = TextWrap.wrap(editor.text + "▏", width: textWidth).suffix(4)
        var row = statusRow - 1
        if let error = editor.error {
            grid.put(" " + error, row: row, column: 0, style: .error)
            row -= 1
        }
        for line in lines.reversed() {
            grid.put("  " + line, row: row, column: 0)
            row -= 1
        }
        var column = grid.put(
            "┌ " + label + (editor.sending ? " · sending…" : "") + " ", row: row, column: 0, style: .bold)
        if let counter {
            let start = grid.width - DisplayWidth.of(counter.text) - 1
            if start > column {
                grid.put(String(repeating: "─", count: start - column), row: row, column: column, style: .dim)
                column = grid.put(counter.text, row: row, column: start, style: counter.style)
            }
        }
        return row
    }

    private static func emptyText(_ state: AppState) -> String {
        switch state.tab {
        case .home: "No tweets yet: n composes one, 5 shows everyone's."
        case .notifications: "No notifications."
        case .messages: "No conversations."
        case .search: state.searchQuery.isEmpty ? "/ searches: from:alice #tag \"exact words\" -word" : "Nothing found."
        case .everyone: "No tweets yet."
        }
    }

    // MARK: - Lists

    /// Draws as many items as fit, the selected one always among them.
    private static func drawList(
        _ list: ItemList, state: AppState, rows: Range<Int>, into grid: inout Grid, empty: String
    ) {
        guard !rows.isEmpty else { return }
        guard !list.items.isEmpty else {
            let text: String
            switch list.phase {
            case .idle, .loading: text = "loading…"
            case .failed(let reason): text = reason
            case .loaded: text = empty
            }
            grid.put(text, row: rows.lowerBound, column: 2, style: .dim)
            return
        }
        let blocks = list.items.enumerated().map { index, item in
            lines(of: item, selected: index == list.selected, state: state, width: grid.width)
        }
        let available = rows.count
        var first = 0
        let selected = min(list.selected, blocks.count - 1)
        while first < selected && blocks[first...selected].reduce(0, { $0 + $1.count }) > available { first += 1 }
        var row = rows.lowerBound
        for index in first..<blocks.count {
            for (lineIndex, line) in blocks[index].enumerated() {
                guard row < rows.upperBound else { return }
                grid.put(line, row: row, column: 0)
                if index == selected && lineIndex == 0 { grid.addStyle(.reverse, row: row, from: 0) }
                row += 1
            }
        }
    }

    /// An item's lines: a header, the text wrapped and highlighted, the counts, a blank line.
    static func lines(of item: Item, selected: Bool, state: AppState, width: Int) -> [[StyledRun]] {
        let marker = StyledRun(selected ? "> " : "  ", .bold)
        switch item {
        case .tweet(let tweet, let depth, let focus):
            let indent = depth == 0 ? "" : String(repeating: "  ", count: depth - 1) + "└ "
            return tweetLines(tweet, lead: [marker, StyledRun(indent, .dim)], focus: focus, state: state, width: width)
        case .deleted(let id, let depth):
            let indent = String(repeating: "  ", count: max(depth - 1, 0)) + (depth > 0 ? "└ " : "")
            return [[marker, StyledRun(indent + "(deleted #\(id))", .dim)], []]
        case .notification(let notification):
            let what: String
            switch notification.type {
            case .mention: what = "mentioned you"
            case .reply: what = "replied to you"
            case .follow: what = "followed you"
            case .like: what = "liked your tweet"
            case .repost: what = "reposted your tweet"
            case .quote: what = "quoted your tweet"
            case .adminReport: what = "filed report \(notification.reportID.map(String.init) ?? "?")"
            }
            let age = HumanFormat.age(of: notification.createdAt, now: state.now)
            var lines: [[StyledRun]] = [
                [
                    marker, StyledRun(notification.read ? "  " : "• ", .notice),
                    StyledRun("@" + notification.from.username, .bold), StyledRun(" " + what),
                    StyledRun(" · " + age, .dim),
                ]
            ]
            if let tweet = notification.tweet.map({ $0.repostOf ?? $0 }) {
                let text = Highlight.lines(of: tweet.text, entities: tweet.entities, width: max(10, width - 6))
                lines += text.prefix(3).map { [StyledRun("      ")] + $0 }
            }
            return lines + [[]]
        case .conversation(let line):
            let age = HumanFormat.age(of: line.updatedAt, now: state.now)
            var lines: [[StyledRun]] = [
                [
                    marker, StyledRun(line.unread > 0 ? "• " : "  ", .notice),
                    StyledRun(line.people.map { "@" + $0 }.joined(separator: ", "), .bold),
                    StyledRun(line.unread > 0 ? " · \(line.unread) unread" : "", .notice), StyledRun(" · " + age, .dim),
                ]
            ]
            if let sender = line.lastSender, let text = line.lastText {
                let wrapped = TextWrap.wrap("@\(sender): \(text)", width: max(10, width - 6))
                lines += wrapped.prefix(2).map { [StyledRun("      "), StyledRun($0)] }
            }
            return lines + [[]]
        }
    }

    private static func tweetLines(
        _ tweet: Tweet, lead: [StyledRun], focus: Bool, state: AppState, width: Int
    ) -> [[StyledRun]] {
        let leadWidth = lead.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let pad = [StyledRun(String(repeating: " ", count: leadWidth + 2))]
        let age = HumanFormat.age(of: tweet.createdAt, now: state.now)
        if let original = tweet.repostOf {
            let header =
                lead + [
                    StyledRun("⟲ @\(tweet.author.username) reposted", .dim), StyledRun(" · \(age)", .dim),
                ]
            return [header] + tweetLines(original, lead: lead, focus: focus, state: state, width: width)
        }
        var about = " · \(age) · #\(tweet.id)"
        if let parent = tweet.inReplyToID { about += " · reply to #\(parent)" }
        var header = lead
        if focus { header.append(StyledRun("▶ ", [.bold, .notice])) }
        header += [StyledRun("@" + tweet.author.username, .bold), StyledRun(about, .dim)]
        let text = Highlight.lines(of: tweet.text, entities: tweet.entities, width: max(10, width - leadWidth - 3))
        var counts = [
            likeText(tweet), HumanFormat.counted(tweet.counts.reposts, "repost") + (tweet.repostedByMe ? " (you)" : ""),
            HumanFormat.counted(tweet.counts.replies, "reply"),
        ]
        if tweet.counts.quotes > 0 { counts.append(HumanFormat.counted(tweet.counts.quotes, "quote")) }
        if state.bookmarked.contains(tweet.id) { counts.append("bookmarked") }
        return [header] + text.map { pad + $0 } + quotedLines(of: tweet, pad: pad, state: state, width: width)
            + [pad + [StyledRun(counts.joined(separator: " · "), .dim)], []]
    }

    /// A quote's quoted tweet, boxed under its text: its author and age, then up to three lines of its text;
    /// `[quoted tweet unavailable]` when the reader may not see it.
    private static func quotedLines(of tweet: Tweet, pad: [StyledRun], state: AppState, width: Int) -> [[StyledRun]] {
        let bar = pad + [StyledRun("│ ", .dim)]
        switch tweet.quoted {
        case .tweet(let quoted)?:
            let age = HumanFormat.age(of: quoted.createdAt, now: state.now)
            let padWidth = pad.reduce(0) { $0 + DisplayWidth.of($1.text) }
            let text = Highlight.lines(of: quoted.text, entities: quoted.entities, width: max(10, width - padWidth - 3))
            return [
                bar + [StyledRun("@" + quoted.author.username, .bold), StyledRun(" · \(age) · #\(quoted.id)", .dim)]
            ]
                + text.prefix(3).map { bar + $0 }
        case .unavailable?:
            return [bar + [StyledRun("[quoted tweet unavailable]", .dim)]]
        case nil:
            return tweet.quoteOfID.map { [bar + [StyledRun("[quotes #\($0)]", .dim)]] } ?? []
        }
    }

    private static func likeText(_ tweet: Tweet) -> String {
        HumanFormat.counted(tweet.counts.likes, "like") + (tweet.likedByMe ? " (you)" : "")
    }

    // MARK: - Pages

    private static func drawProfile(_ user: UserOverview, rows: Range<Int>, into grid: inout Grid) -> Range<Int> {
        var row = rows.lowerBound
        let name = [user.firstName, user.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        var column = grid.put("  @" + user.username, row: row, column: 0, style: .bold)
        if !name.isEmpty { grid.put("  " + name, row: row, column: column) }
        row += 1
        for line in TextWrap.wrap(user.bio, width: grid.width - 4).prefix(3) where !user.bio.isEmpty {
            grid.put("  " + line, row: row, column: 0)
            row += 1
        }
        var facts = [
            HumanFormat.counted(user.tweetsCount, "tweet"), HumanFormat.counted(user.followersCount, "follower"),
            "\(user.followingCount) following",
        ]
        if user.followsMe { facts.append("follows you") }
        grid.put("  " + facts.joined(separator: " · "), row: row, column: 0)
        row += 1
        column = grid.put("  joined " + HumanFormat.month(of: user.createdAt), row: row, column: 0, style: .dim)
        let follow = user.followedByMe ? "  following · f unfollows" : "  f follows"
        grid.put(follow, row: row, column: column, style: user.followedByMe ? .notice : .bold)
        row += 2
        return min(row, rows.upperBound)..<rows.upperBound
    }

    private static func drawHelp(_ state: AppState, rows: Range<Int>, into grid: inout Grid) {
        var row = rows.lowerBound
        for (keys, action) in KeyMap.help(state.capabilities) where row < rows.upperBound {
            let column = grid.put("  " + keys, row: row, column: 0, style: .bold)
            grid.put(action, row: row, column: max(column + 2, 14))
            row += 1
        }
        if row + 1 < rows.upperBound {
            grid.put("  Esc, q or ? closes this help.", row: row + 1, column: 0, style: .dim)
        }
    }
}
