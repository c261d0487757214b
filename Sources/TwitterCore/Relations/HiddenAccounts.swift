/// The accounts one reader does not see: those it mutes, those it blocks, and those that block it. Kept per
/// reader in the read model like `ReaderMarks`, and changed exactly by the mute and block events.
public struct HiddenAccounts: Sendable, Equatable {
    /// Accounts the reader mutes.
    public var muted: Set<Int64>
    /// Accounts the reader blocks.
    public var blocking: Set<Int64>
    /// Accounts that block the reader.
    public var blockedBy: Set<Int64>

    /// Creates the sets; empty by default.
    public init(muted: Set<Int64> = [], blocking: Set<Int64> = [], blockedBy: Set<Int64> = []) {
        self.muted = muted
        self.blocking = blocking
        self.blockedBy = blockedBy
    }

    /// Whether the reader sees everyone.
    public var isEmpty: Bool { muted.isEmpty && blocking.isEmpty && blockedBy.isEmpty }

    /// Every account hidden from the reader's timelines, notifications, lists and search.
    public var all: Set<Int64> {
        isEmpty ? [] : muted.union(blocking).union(blockedBy)
    }

    /// Whether a block stands between the reader and `accountID`, either way: then even the account's tweets
    /// asked for by id are as if absent.
    public func isBlocked(_ accountID: Int64) -> Bool {
        blocking.contains(accountID) || blockedBy.contains(accountID)
    }

    /// Whether `tweet` (or, for a repost, its original) is by a hidden account.
    public func hides(_ tweet: Tweet) -> Bool {
        guard !isEmpty else { return false }
        let hidden = all
        return hidden.contains(tweet.author.id) || tweet.repostOf.map { hidden.contains($0.author.id) } ?? false
    }

    /// The readers whose hidden accounts an event changes.
    public static func readers(changedBy event: TweetEvent) -> [Int64] {
        switch event {
        case .muted(let muter, _), .unmuted(let muter, _): [muter]
        case .blocked(let blocker, let blocked), .unblocked(let blocker, let blocked): [blocker, blocked]
        default: []
        }
    }

    /// Applies one committed event to the reader's sets.
    public mutating func apply(_ event: TweetEvent, reader: Int64) {
        switch event {
        case .muted(let muter, let muted) where muter == reader: self.muted.insert(muted)
        case .unmuted(let muter, let muted) where muter == reader: self.muted.remove(muted)
        case .blocked(let blocker, let blocked):
            if blocker == reader { blocking.insert(blocked) } else if blocked == reader { blockedBy.insert(blocker) }
        case .unblocked(let blocker, let blocked):
            if blocker == reader { blocking.remove(blocked) } else if blocked == reader { blockedBy.remove(blocker) }
        default: break
        }
    }
}

extension HiddenAccounts {
    /// A thread as the reader may see it: nil when a block stands between the reader and the tweet's author
    /// (as if it did not exist); hidden accounts' tweets above or below it become placeholders, like deleted
    /// tweets, so the replies to them keep their place.
    public func shown(_ rows: ThreadRows) -> ThreadRows? {
        guard !isEmpty else { return rows }
        guard !isBlocked(rows.tweet.author.id) else { return nil }
        let hidden = all
        func placeholder(_ entry: ThreadEntry) -> ThreadEntry {
            guard case .tweet(let tweet) = entry, hidden.contains(tweet.author.id) else { return entry }
            return .deleted(id: tweet.id, inReplyToID: tweet.inReplyToID)
        }
        return ThreadRows(
            ancestors: rows.ancestors.map(placeholder), tweet: rows.tweet,
            descendants: rows.descendants.map(placeholder))
    }
}
