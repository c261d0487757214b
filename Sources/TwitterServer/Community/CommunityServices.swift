import Foundation
import Logging
import TwitterCore

// @MemberwiseInit
/// What running a community needs: moderation, the account lifecycle, the audit log, and the sealer that
/// makes and hashes password reset codes.
public struct CommunityServices: Sendable {
    /// Suspensions, reports and the audit log.
    public var moderation: any ModerationStoring
    /// Archives, deletions and reset codes.
    public var accounts: any AccountLifecycleStoring
    /// Makes reset codes and the keyed hash they are stored as.
    public var sealer: any TokenSealing
    /// The journal side of the audit log.
    public var logger: Logger

    /// How long a reset code works.
    static let resetCodeLifetime: TimeInterval = 3600
    /// How long a deleted account's username stays reserved.
    static let reservedNameDays = 30

    /// Records one admin action by `actor` (the admin's name now) in the audit log and as one journal line.
    func audit(_ actor: String, _ action: String, target: String, reason: String?) async throws {
        let entry = try await moderation.record(
            AuditEntry(actor: actor, action: action, target: target, reason: reason, createdAt: Date()))
        logger.notice(
            "audit",
            metadata: [
                "id": "\(entry.id)", "actor": "\(entry.actor)", "action": "\(action)", "target": "\(target)",
                "reason": "\(reason ?? "")",
            ])
    }
}
