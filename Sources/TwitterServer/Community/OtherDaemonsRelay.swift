import Synchronization
import TwitterCore

/// Stands between a store and the read model. Every commit goes on to the read model; what another daemon on
/// the same database did is also acted on here as this daemon acts on what it does itself: a revocation ends the
/// live connections resting on it, and a post, repost, like, follow, report, block, mute, bookmark or message takes
/// from the same rate bucket, so an account's allowance is one across the daemons. (The writes whose commits carry no event
/// naming their maker, or that other daemons need not hear of, such as a token or a read marker, are counted by
/// the daemon that served them alone: docs/SECURITY.md's known limits.)
public final class OtherDaemonsRelay: CommitObserving {
    private let next: any CommitObserving
    private let liveLogins: LiveLogins
    private let rates = Mutex<WriteRateLimiter?>(nil)

    /// A relay passing commits to `next` and other daemons' revocations to `liveLogins`.
    public init(next: any CommitObserving, liveLogins: LiveLogins) {
        self.next = next
        self.liveLogins = liveLogins
    }

    /// Charges other daemons' writes to `rates` from now on: set once the limiter, made after the stores, exists.
    public func charge(to rates: WriteRateLimiter) {
        self.rates.withLock { $0 = rates }
    }

    /// This daemon's commit: on to the read model, but its revocations, which are logged for the other daemons
    /// and were acted on here by the call that made them (`AccountEvent.revoked` is never delivered for those).
    public func committed(_ events: [CommitEvent]) {
        let passed = events.filter { if case .account(.revoked) = $0 { false } else { true } }
        if !passed.isEmpty { next.committed(passed) }
    }

    /// Another daemon's commit: its revocations to the live logins, its writes to the rate buckets, the rest on
    /// to the read model.
    public func committedElsewhere(_ events: [CommitEvent]) {
        let rates = rates.withLock { $0 }
        var passed: [CommitEvent] = []
        passed.reserveCapacity(events.count)
        var reports: Set<Int64> = []
        for event in events {
            switch event {
            case .account(.revoked(let revocation)):
                liveLogins.revokeFromElsewhere(revocation)
                continue
            case .tweet(.posted(let tweet)):
                rates?.charge(tweet.repostOf == nil ? .posts : .reposts, by: tweet.author.id)
            case .tweet(.liked(_, let userID)):
                rates?.charge(.likes, by: userID)
            case .relation(.followed(let followerID, _)):
                rates?.charge(.follows, by: followerID)
            case .relation(.blocked(let blockerID, _)), .relation(.unblocked(let blockerID, _)):
                rates?.charge(.blocks, by: blockerID)
            case .relation(.muted(let muterID, _)), .relation(.unmuted(let muterID, _)):
                rates?.charge(.mutes, by: muterID)
            case .tweet(.bookmarked(_, let userID)), .tweet(.unbookmarked(_, let userID)):
                rates?.charge(.bookmarks, by: userID)
            case .message(.sent(let message, _)):
                rates?.charge(.messages, by: message.sender.id)
            case .account(.notified(let notification, _)):
                // One report notifies every admin: charged once.
                if notification.type == .adminReport, let report = notification.reportID,
                    reports.insert(report).inserted
                {
                    rates?.charge(.reports, by: notification.from.id)
                }
            default:
                break
            }
            passed.append(event)
        }
        if !passed.isEmpty { next.committed(passed) }
    }
}
