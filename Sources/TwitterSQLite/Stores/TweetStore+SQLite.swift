import TwitterCore
import TwitterSQL

extension TweetStore {
    /// The tweets of a SQLite database, posts committed by its own group commit (`SQLitePostCommitter`).
    public init(database: AppDatabase, observer: any CommitObserving) {
        self.init(
            database: database, committer: SQLitePostCommitter(database: database, observer: observer),
            observer: observer)
    }
}
