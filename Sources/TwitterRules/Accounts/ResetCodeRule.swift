import Foundation

/// Using a password-reset code, once for every store: a code works once, before it expires. The row goes when the
/// code matched (used) or has expired (useless), in the transaction that read it with the row locked, so two uses
/// of one code cannot both succeed: the second finds no row.
public enum ResetCodeRule {
    /// What the store does with the account's stored code.
    public struct Outcome: Sendable, Equatable {
        /// Whether to delete the stored code.
        public let deleteCode: Bool
        /// Whether the presented code resets the password.
        public let accepted: Bool
    }

    /// The outcome for a stored code that `matches` the presented one (or not) and expires at `expiresAt`.
    public static func outcome(matches: Bool, expiresAt: Date, now: Date) -> Outcome {
        let expired = expiresAt <= now
        return Outcome(deleteCode: expired || matches, accepted: matches && !expired)
    }
}
