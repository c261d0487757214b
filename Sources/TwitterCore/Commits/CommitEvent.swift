/// One change a commit reports to its observer (`CommitObserving`), by what it is about: a tweet, a
/// relation, an account or a direct message. The read model applies them, the live streams carry them, and on a shared database
/// the commit log keeps them for the other daemons.
///
/// `indirect`: each event's payload is kept in one box, so the read model's caches, which each walk a commit's events,
/// copy an event with one retain instead of one for each of its strings and arrays. That took a post 5,000 of its
/// 168,000 instructions (bench/instructions.sh, callgrind), nine copies of a post's event.
public indirect enum CommitEvent: Sendable, Equatable {
    /// A tweet was posted, deleted, counted, liked or bookmarked.
    case tweet(TweetEvent)
    /// A follow, mute, block or list membership began or ended, or a list's privacy changed.
    case relation(RelationEvent)
    /// An account was notified, changed standing, or had a credential revoked.
    case account(AccountEvent)
    /// A direct message was sent.
    case message(MessageEvent)

    /// The tweet's event, if it is one.
    public var tweetEvent: TweetEvent? {
        if case .tweet(let event) = self { event } else { nil }
    }

    /// The relation's event, if it is one.
    public var relationEvent: RelationEvent? {
        if case .relation(let event) = self { event } else { nil }
    }

    /// The account's event, if it is one.
    public var accountEvent: AccountEvent? {
        if case .account(let event) = self { event } else { nil }
    }

    /// The message's event, if it is one.
    public var messageEvent: MessageEvent? {
        if case .message(let event) = self { event } else { nil }
    }

    /// Whether an account's content appeared or vanished as a whole (`AccountEvent.standingChanged`): the read
    /// model then starts again from the store.
    public var changesStanding: Bool {
        accountEvent?.changesStanding ?? false
    }

    /// Whether someone must no longer see or do what they could before (a revocation, a block, a suspension or
    /// deletion, a list made private): on a database several daemons share, such a commit is answered only once
    /// every daemon serving from its caches has applied it.
    public var withdrawsAccess: Bool {
        switch self {
        case .tweet, .message: false
        case .relation(let event): event.withdrawsAccess
        case .account(let event): event.withdrawsAccess
        }
    }
}
