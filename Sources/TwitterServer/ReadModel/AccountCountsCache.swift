import Synchronization
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
    private struct State {
        var counts: [Int64: AccountCounts] = [:]
        /// The accounts with a load under way: how many loads, and how many commits touched the account since the
        /// first began; a load that a commit raced answers its own read but is not kept.
        var loading: [Int64: (loads: Int, touches: Int)] = [:]
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// Keeps at most `capacity` accounts' counts (past it, it starts again).
    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The counts of `account` if they are kept.
    func cached(_ account: Int64) -> AccountCounts? {
        state.withLock { $0.counts[account] }
    }

    /// The counts of `account`, counted with `load` (the store's `counts(of:)`) when they are not kept.
    func counts(of account: Int64, load: () async throws -> AccountCounts) async throws -> AccountCounts {
        enum Start {
            case kept(AccountCounts)
            case load(begunAt: Int)
        }
        let start = state.withLock { state -> Start in
            if let kept = state.counts[account] { return .kept(kept) }
            var entry = state.loading[account] ?? (0, 0)
            entry.loads += 1
            state.loading[account] = entry
            return .load(begunAt: entry.touches)
        }
        let begunAt: Int
        switch start {
        case .kept(let kept): return kept
        case .load(let touches): begunAt = touches
        }
        let loaded: AccountCounts
        do {
            loaded = try await load()
        } catch {
            state.withLock { _ = Self.endLoad(of: account, begunAt: begunAt, in: &$0) }
            throw error
        }
        state.withLock { state in
            guard Self.endLoad(of: account, begunAt: begunAt, in: &state) else { return }
            if state.counts.count >= capacity { state.counts = [:] }
            state.counts[account] = loaded
        }
        return loaded
    }

    /// Ends a load of `account` begun at `begunAt` touches; whether no commit touched the account meanwhile.
    private static func endLoad(of account: Int64, begunAt: Int, in state: inout State) -> Bool {
        guard var entry = state.loading[account] else { return false }
        entry.loads -= 1
        state.loading[account] = entry.loads > 0 ? entry : nil
        return entry.touches == begunAt
    }

    /// Drops the counts of every account a commit's events may change.
    func apply(_ events: [CommitEvent]) {
        // Found before locking: most events (likes, counts) touch no account's counts.
        let touched = events.flatMap(Self.accounts(touchedBy:))
        guard !touched.isEmpty else { return }
        state.withLock { state in
            for account in touched {
                state.counts[account] = nil
                state.loading[account]?.touches += 1
            }
        }
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
