import TwitterCore

/// The accounts that keep themselves off the public web pages (`profile.update {webVisible: false}`), which every
/// web page hides as a block hides an account: read from the store once, then kept exact by the commits that move
/// an account on or off the web (`AccountEvent.webVisibilityChanged`): this daemon's, and on a shared database the
/// other daemons', through the commit log, as every other layer is kept.
///
/// Why it is kept: read from the store, the set was `SELECT id FROM users WHERE NOT web_visible`, a scan of the
/// users table (no index holds the flag), for every `web.*` call, twice for each `/@NAME` page. Measured alone
/// (bench/analysis.md, "The public profile page"), keeping it did not move that page (100 pages/s against 102):
/// the followers count was its cost (`AccountCountsCache`). It is kept so that a web page reads no table for it,
/// and, while nobody is off the web, reads the same shared cached pages as a reader who hides nobody.
final class OffWebAccountsCache: Sendable {
    /// The one key the whole set is kept under, so the keyed cache's rule for a load that races an event (the
    /// load is not kept) covers it.
    private static let key: Int64 = 0

    private let accounts = KeyedCommitCache<AccountEvent, Set<Int64>>(
        capacity: 1, subject: \.accountEvent,
        keys: { event in
            if case .webVisibilityChanged = event { [OffWebAccountsCache.key] } else { [] }
        },
        update: { accounts, event, _ in
            // The event says where the account is now, not that it moved: applying it twice changes nothing.
            guard case .webVisibilityChanged(let userID, let visible) = event else { return }
            if visible { accounts.remove(userID) } else { accounts.insert(userID) }
        })

    /// The set, loaded with `load` (the store's `webHiddenUsers`) when it is not kept.
    func accounts(load: () async throws -> Set<Int64>) async throws -> Set<Int64> {
        try await accounts.value(of: Self.key, load: load)
    }

    /// The set if it is kept (for tests).
    var cached: Set<Int64>? {
        accounts.cached(Self.key)
    }

    /// Applies a commit's changes of accounts' places on the web.
    func apply(_ events: [CommitEvent]) {
        accounts.apply(events)
    }
}
