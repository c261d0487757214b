import TwitterCore
import TwitterSQL

extension AppDatabase {
    /// Every store on this database, reporting committed changes to `observer`, for the uids of `host`.
    public func stores(observer: any CommitObserving, host: String = "") -> StoreSet {
        StoreSet(
            on: self, committer: SQLitePostCommitter(database: self, observer: observer), observer: observer,
            search: SearchStore(database: self), health: self, host: host)
    }

    /// Hands the uid-keyed rows of no host (made before hosts were kept) to `host` (`HostClaim`).
    public func claimRowsWithoutHost(for host: String) async throws {
        try await HostClaim(database: self, host: host).run()
    }
}
