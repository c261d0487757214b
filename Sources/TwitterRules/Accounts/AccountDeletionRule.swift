import Foundation
import TwitterCore

/// What deleting an account does besides removing its row (whose references cascade), once for every store: its
/// part in others' counters is taken out unless a suspension took it out already, its tweets that hold a place in
/// a conversation leave tombstones (the store's query finds them), the login throttle's row for its e-mail goes,
/// and its name stays reserved until `reservedUntil`, so nobody can take it over to pass for the account.
public enum AccountDeletionRule {
    // @MemberwiseInit
    /// The facts a store reads, with the account's row locked where it can.
    public struct Facts: Sendable, Equatable {
        /// The folded name (`users.username_key`).
        public var usernameKey: String
        /// The folded e-mail (`users.email_key`).
        public var emailKey: String
        /// Whether a suspension already took the account's contributions out of the counters.
        public var contributionsWithdrawn: Bool
    }

    /// What the store writes, in one transaction, before deleting the row.
    public struct Plan: Sendable, Equatable {
        /// Whether to move the account's contributions out of the counters (-1).
        public let withdrawContributions: Bool
        /// The `login_throttles` key to delete.
        public let throttleKey: String
        /// The folded name to keep in `reserved_usernames` (insert or replace).
        public let reservedName: String
        /// Until when nobody may take the name.
        public let reservedUntil: Date
        /// The events once committed: whatever holds the account starts again without it.
        public let events: [CommitEvent]
    }

    /// The plan for deleting `userID`; a missing account (nil facts) is -32004.
    public static func plan(deleting userID: Int64, facts: Facts?, reservingNameUntil reservedUntil: Date)
        throws(TwitterError) -> Plan
    {
        guard let facts else { throw TwitterError.notFound("Account") }
        return Plan(
            withdrawContributions: !facts.contributionsWithdrawn,
            throttleKey: LoginThrottle.Key.account(facts.emailKey).storageName,
            reservedName: facts.usernameKey, reservedUntil: reservedUntil,
            events: [.account(.standingChanged(userID: userID))])
    }
}
