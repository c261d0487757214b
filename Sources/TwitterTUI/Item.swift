import Foundation
import TwitterCore

/// One entry of a list on screen.
public enum Item: Sendable, Equatable {
    /// A tweet; `depth` nests a reply in a thread, `focus` marks the tweet a thread was opened on.
    case tweet(Tweet, depth: Int = 0, focus: Bool = false)
    /// A tweet that was deleted but keeps its place in a thread.
    case deleted(id: Int64, depth: Int)
    /// A notification.
    case notification(ActivityNotification)
    /// A direct-message conversation: who is in it, its last message, what is unread.
    case conversation(ConversationLine)

    /// The tweet the keys act on: a repost's original, a notification's tweet.
    public var tweet: Tweet? {
        switch self {
        case .tweet(let tweet, _, _): tweet.repostOf ?? tweet
        case .deleted: nil
        case .notification(let notification): notification.tweet.map { $0.repostOf ?? $0 }
        case .conversation: nil
        }
    }

    /// Who `u` opens: a tweet's author, a notification's actor.
    public var person: String? {
        switch self {
        case .tweet(let tweet, _, _): (tweet.repostOf ?? tweet).author.username
        case .deleted: nil
        case .notification(let notification): notification.from.username
        case .conversation(let line): line.people.first
        }
    }

    /// The id it is known by in its list.
    public var id: Int64 {
        switch self {
        case .tweet(let tweet, _, _): tweet.id
        case .deleted(let id, _): id
        case .notification(let notification): notification.id
        case .conversation(let line): line.id
        }
    }

    /// The item with `change` applied to every copy of the tweet `id` in it (itself, or a repost's original).
    func updatingTweet(_ id: Int64, _ change: (inout Tweet) -> Void) -> Item {
        func apply(_ tweet: Tweet) -> Tweet {
            var tweet = tweet
            if tweet.id == id { change(&tweet) }
            if var original = tweet.repostOf, original.id == id {
                change(&original)
                tweet.repostOf = original
            }
            return tweet
        }
        switch self {
        case .tweet(let tweet, let depth, let focus): return .tweet(apply(tweet), depth: depth, focus: focus)
        case .deleted, .conversation: return self
        case .notification(var notification):
            notification.tweet = notification.tweet.map(apply)
            return .notification(notification)
        }
    }
}

// @MemberwiseInit
/// A conversation as the Messages tab shows it.
public struct ConversationLine: Sendable, Equatable {
    /// The conversation's id.
    public var id: Int64
    /// The other participants' usernames.
    public var people: [String]
    /// Who wrote the last message; nil when there is none or it was deleted.
    public var lastSender: String?
    /// The last message's text.
    public var lastText: String?
    /// Messages the reader has not read.
    public var unread: Int
    /// The last activity.
    public var updatedAt: Date
}

/// A list on screen: its items, the selection, and what arrived while the reader was scrolled away.
public struct ItemList: Sendable, Equatable {
    /// Where the list's loading stands.
    public enum Phase: Sendable, Equatable {
        /// Not asked for yet.
        case idle
        /// Asked for.
        case loading
        /// Shown.
        case loaded
        /// The daemon refused or went away; the message says why.
        case failed(String)
    }

    /// Newest first.
    public var items: [Item] = []
    /// The selected item's index.
    public var selected = 0
    /// New items held back while the reader is away from the top ("N new"); newest first.
    public var pending: [Item] = []
    /// Loading.
    public var phase: Phase = .idle

    /// An empty list that has not loaded.
    public init() {}

    /// The selected item.
    public var selection: Item? { items.indices.contains(selected) ? items[selected] : nil }

    /// Moves the selection by `offset`, within the list; moving up past the top shows what is pending.
    public mutating func move(by offset: Int) {
        if offset < 0 && selected == 0 && !pending.isEmpty { return showPending() }
        selected = max(0, min(items.count - 1, selected + offset))
    }

    /// The first item, with what was pending shown above it.
    public mutating func top() {
        showPending()
    }

    /// The last item.
    public mutating func bottom() {
        selected = max(0, items.count - 1)
    }

    /// Adds new items: at once at the top, or held as "N new" when the reader has scrolled away.
    public mutating func receive(_ new: [Item]) {
        let known = Set(items.map(\.id)).union(pending.map(\.id))
        let fresh = new.filter { !known.contains($0.id) }
        guard !fresh.isEmpty else { return }
        if selected == 0 && pending.isEmpty {
            items.insert(contentsOf: fresh, at: 0)
        } else {
            pending.insert(contentsOf: fresh, at: 0)
        }
    }

    /// Shows the pending items above the rest and selects the newest.
    public mutating func showPending() {
        items.insert(contentsOf: pending, at: 0)
        pending = []
        selected = 0
    }

    /// Replaces the items with a fresh page, keeping the selection on the same item when it is still there.
    public mutating func replace(with page: [Item]) {
        let selectedID = selection?.id
        items = page
        pending = []
        selected = selectedID.flatMap { id in page.firstIndex { $0.id == id } } ?? 0
        phase = .loaded
    }

    /// Applies `change` to every copy of tweet `id`.
    public mutating func updateTweet(_ id: Int64, _ change: (inout Tweet) -> Void) {
        items = items.map { $0.updatingTweet(id, change) }
        pending = pending.map { $0.updatingTweet(id, change) }
    }

    /// Removes tweet `id` and the reposts of it.
    public mutating func removeTweet(_ id: Int64) {
        func keeps(_ item: Item) -> Bool {
            guard case .tweet(let tweet, _, _) = item else { return true }
            return tweet.id != id && tweet.repostOf?.id != id
        }
        items = items.filter(keeps)
        pending = pending.filter(keeps)
        selected = max(0, min(selected, items.count - 1))
    }
}
