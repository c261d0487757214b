import TwitterCore

/// Suspending and lifting a suspension, once for every store. A suspended account's content is left out by the
/// reads themselves, so a change of standing writes only the mark and the counters the account contributes to
/// (its likes, reposts and replies of others' tweets), in the transaction that changes the mark: every count then
/// reads as if the account had never been there, and exactly as before once it is back.
public enum StandingRule {
    /// A change of an account's standing.
    public enum Change: Sendable, Equatable {
        case suspend
        case unsuspend
    }

    /// What the store does once it knows whether the account is suspended now.
    public struct Plan: Sendable, Equatable {
        /// -1 to take the account's contributions out of the counters, +1 to put them back.
        public let contributionSign: Int
        /// The events, once committed: whatever holds the account's content or counts starts again.
        public let events: [CommitEvent]
    }

    /// The plan for `change` to an account suspended or not (`isSuspended`, read in the transaction, the row
    /// locked where the store can); nil when there is nothing to do: suspending the suspended, lifting what is
    /// not there. A nil plan answers false, so two moderators acting at once move the counters once.
    public static func plan(_ change: Change, of userID: Int64, isSuspended: Bool) -> Plan? {
        switch (change, isSuspended) {
        case (.suspend, false): Plan(contributionSign: -1, events: [.account(.standingChanged(userID: userID))])
        case (.unsuspend, true): Plan(contributionSign: 1, events: [.account(.standingChanged(userID: userID))])
        default: nil
        }
    }
}
