import TwitterCore

/// Each recently shown account's counts (followers, following, tweets: what `follows.overview` counts), read from
/// the store once and kept until a commit may change them: a follow or unfollow of it or by it, a block either way
/// (which ends follows), a tweet of it posted or deleted (a repost too), or its change of standing. Such a commit
/// drops the account's counts, and the next read counts again, so what is kept is always what the store counts.
/// (A change of anyone's standing replaces every layer, `FeedReadModel.committed`, which drops all of them.)
///
/// Why it is kept: the public profile page (`web.user`) counted every page view, and counting an account's
/// followers reads one index entry per follower, then its row (no index holds both ids in the followee's order):
/// 9,999 for the bench's seed1. Measured (bench/analysis.md, "The public profile page"): `/@seed1` went from
/// 100 to 1,017–1,144 pages/s on a 200,000-tweet seed, and to 898 (.20 of `timeline.user`) in `make bench`.
final class AccountCountsCache: Sendable {
    /// Dropped, not updated, by an event: a load racing a commit is then not kept (`KeyedCommitCache`).
    private let kept: KeyedCommitCache<CommitEvent, AccountCounts>

    /// Keeps at most `capacity` accounts' counts (past it, it starts again).
    init(capacity: Int = 10_000) {
        kept = .dropping(capacity: capacity, subject: { $0 }, keys: Self.accounts(touchedBy:))
    }

    /// The counts of `account` if they are kept.
    func cached(_ account: Int64) -> AccountCounts? {
        kept.cached(account)
    }

    /// The counts of `account`, counted with `load` (the store's `counts(of:)`) when they are not kept.
    func counts(of account: Int64, load: () async throws -> AccountCounts) async throws -> AccountCounts {
        try await kept.value(of: account, load: load)
    }

    /// Drops the counts of every account a commit's events may change.
    func apply(_ events: [CommitEvent]) {
        kept.apply(events)
    }

    /// The accounts whose counts `event` may change.
    static func accounts(touchedBy event: CommitEvent) -> [Int64] {
        switch event {
        case .relation(.followed(let follower, let followee)), .relation(.unfollowed(let follower, let followee)):
            [follower, followee]
        case .relation(.blocked(let blocker, let blocked)), .relation(.unblocked(let blocker, let blocked)):
            [blocker, blocked]
        case .tweet(.posted(let tweet)): [tweet.author.id]
        case .tweet(.deleted(_, let author, _)): [author]
        case .account(.standingChanged(let userID)): [userID]
        case .relation, .tweet, .account, .message: []
        }
    }
}
