import TwitterCore
import TwitterSQL

extension AppDatabase {
    /// Every store on this database, reporting committed changes to `observer`.
    public func stores(observer: any CommitObserving) -> StoreSet {
        StoreSet(
            on: self, committer: PostCommitter(database: self, observer: observer), observer: observer,
            search: SearchStore(database: self), health: self)
    }
}
