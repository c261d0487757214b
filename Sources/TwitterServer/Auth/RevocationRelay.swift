import TwitterCore

/// Stands between a store and the read model: revocations other daemons made (`TweetEvent.revoked`) go to the
/// live logins, every other event to the read model, in the order the store reported them.
public struct RevocationRelay: TweetCommitObserving {
    let next: any TweetCommitObserving
    let liveLogins: LiveLogins

    /// A relay passing tweet events to `next` and revocations to `liveLogins`.
    public init(next: any TweetCommitObserving, liveLogins: LiveLogins) {
        self.next = next
        self.liveLogins = liveLogins
    }

    /// Splits `events` between the live logins and the read model.
    public func committed(_ events: [TweetEvent]) {
        var passed: [TweetEvent] = []
        passed.reserveCapacity(events.count)
        for event in events {
            if case .revoked(let revocation) = event {
                liveLogins.revokeFromElsewhere(revocation)
            } else {
                passed.append(event)
            }
        }
        if !passed.isEmpty { next.committed(passed) }
    }
}
