/// The accounts one reader does not see: those it mutes, those it blocks, and those that block it. Kept per
/// reader in the read model like `ReaderMarks`, and changed exactly by the mute and block events. These are the
/// facts; what they hide is `TweetVisibility`'s to decide.
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

    /// The readers whose hidden accounts an event changes.
    public static func readers(changedBy event: RelationEvent) -> [Int64] {
        switch event {
        case .muted(let muter, _), .unmuted(let muter, _): [muter]
        case .blocked(let blocker, let blocked), .unblocked(let blocker, let blocked): [blocker, blocked]
        default: []
        }
    }

    /// Applies one committed event to the reader's sets.
    public mutating func apply(_ event: RelationEvent, reader: Int64) {
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
