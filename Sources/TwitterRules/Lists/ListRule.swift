import TwitterCore

/// Lists: who may change one, who may be added, the cap on members and the counter, once for every store. A list
/// is its owner's alone to change; a private one does not exist for anyone else. Nobody is told of a
/// membership: its events only move the list's live streams.
public enum ListRule {
    /// The most members a list holds.
    public static let maximumMembers = 500

    // @MemberwiseInit
    /// A list as a write reads it, in the write's transaction.
    public struct Facts: Sendable, Equatable {
        /// Its owner.
        public var ownerID: Int64
        /// Whether it is private.
        public var isPrivate: Bool
        /// How many members it has, suspended ones included: the rows, which the 500 cap counts.
        public var membersCount: Int
        /// Whether a block stands, either way, between the owner and the account acting on the list.
        public var blockedWithActor: Bool = false
    }

    // @MemberwiseInit
    /// What a membership change writes: the row to insert or delete, the counter's move and the events.
    public struct Plan: Sendable, Equatable {
        /// Whether a membership row changes (inserted for an add, deleted for a removal).
        public var changesRow: Bool
        /// How the list's `members_count` moves: +1, -1 or 0.
        public var countDelta: Int
        /// The events to report, in order.
        public var events: [CommitEvent]
    }

    /// Checks that `actor` may change list `listID` (`facts` as read; nil when there is none): -32004 when there
    /// is none, or it is someone else's private list, or a block stands between its owner and the actor, since
    /// the actor may not know it exists (`UserList.isVisible`: the same answer, word for word, as for no list);
    /// -32003 when it is someone else's public list.
    public static func requireOwner(_ listID: Int64, facts: Facts?, actor: Int64) throws(TwitterError) -> Facts {
        guard let facts, facts.ownerID == actor || (!facts.isPrivate && !facts.blockedWithActor) else {
            throw TwitterError.notFound("List \(listID)")
        }
        guard facts.ownerID == actor else {
            throw TwitterError(.forbidden, "Only the list's owner may change list \(listID)")
        }
        return facts
    }

    /// Decides `actor`'s adding of `memberID` to list `listID`: the owner alone; refused (-32003) when a block
    /// stands between the member and the owner, either way (`blockBetween`, read in the transaction); refused
    /// (-32005) past `maximumMembers`; adding a member again changes nothing.
    public static func add(
        _ memberID: Int64, to listID: Int64, facts: Facts?, by actor: Int64, isMember: Bool, blockBetween: Bool
    ) throws(TwitterError) -> Plan {
        let list = try requireOwner(listID, facts: facts, actor: actor)
        guard !blockBetween else {
            throw TwitterError(.forbidden, "This account cannot be added to your lists: a block stands between you")
        }
        guard !isMember else { return Plan(changesRow: false, countDelta: 0, events: []) }
        guard list.membersCount < maximumMembers else {
            throw TwitterError(
                .conflict, "List \(listID) is full: a list has at most \(maximumMembers) members",
                details: ["maximum": .int(maximumMembers)])
        }
        return Plan(changesRow: true, countDelta: 1, events: [.relation(.listed(listID: listID, memberID: memberID))])
    }

    /// Decides `actor`'s removal of `memberID` from list `listID`: the owner alone; removing a non-member changes
    /// nothing.
    public static func remove(
        _ memberID: Int64, from listID: Int64, facts: Facts?, by actor: Int64, isMember: Bool
    ) throws(TwitterError) -> Plan {
        _ = try requireOwner(listID, facts: facts, actor: actor)
        guard isMember else { return Plan(changesRow: false, countDelta: 0, events: []) }
        return Plan(
            changesRow: true, countDelta: -1, events: [.relation(.unlisted(listID: listID, memberID: memberID))])
    }

    /// The events of changing list `listID` (`facts` as read before) by `patch`: one when its privacy changes,
    /// so its live streams to others stop or go on in commit order.
    public static func updateEvents(_ listID: Int64, facts: Facts, patch: ListPatch) -> [CommitEvent] {
        guard let isPrivate = patch.isPrivate, isPrivate != facts.isPrivate else { return [] }
        return [.relation(.listPrivacyChanged(listID: listID, ownerID: facts.ownerID, isPrivate: isPrivate))]
    }

    /// The events of deleting a list with `memberIDs`: each member leaves its live streams.
    public static func deletionEvents(of listID: Int64, memberIDs: [Int64]) -> [CommitEvent] {
        memberIDs.sorted().map { .relation(.unlisted(listID: listID, memberID: $0)) }
    }

    /// The memberships a block ends, as Mastodon does: the blocker's in the blocked account's lists and the
    /// blocked account's in the blocker's, each `(ownerID, memberID)`.
    public static func membershipsEndedByBlock(blocker: Int64, blocked: Int64) -> [(ownerID: Int64, memberID: Int64)] {
        [(blocked, blocker), (blocker, blocked)]
    }

    /// The events of memberships ended by a block or an account's deletion: `(listID, memberID)` each, in order.
    public static func endedEvents(_ ended: [(listID: Int64, memberID: Int64)]) -> [CommitEvent] {
        ended.map { .relation(.unlisted(listID: $0.listID, memberID: $0.memberID)) }
    }
}
