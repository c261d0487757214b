import Foundation
import Synchronization
import Testing
import TwitterCore
import TwitterStore

/// A backend the store suite runs against. The suite's tests see only TwitterCore's store protocols, so a new
/// backend adds itself to `all` and every case runs on it unchanged.
struct StoreBackend: Sendable, CustomTestStringConvertible {
    let name: String
    /// Makes a fresh, empty set of stores reporting their commits to the observer.
    let make: @Sendable (any TweetCommitObserving) async throws -> Stores

    var testDescription: String { name }

    /// Every backend this machine runs.
    static let all: [StoreBackend] = [.sqlite]

    /// SQLite in a file of its own, in WAL mode like the daemon's.
    static let sqlite = StoreBackend(name: "SQLite") { observer in
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID()).sqlite").path
        let database = try AppDatabase.open(path: path)
        return Stores(
            users: UserStore(database: database), profiles: ProfileStore(database: database),
            tweets: TweetStore(database: database, observer: observer),
            follows: FollowStore(database: database, observer: observer),
            likes: LikeStore(database: database, observer: observer),
            relations: RelationStore(database: database, observer: observer),
            notifications: NotificationStore(database: database), search: SearchStore(database: database),
            moderation: ModerationStore(database: database, observer: observer),
            accounts: AccountStore(database: database, observer: observer),
            rateBuckets: RateBucketStore(database: database), throttle: ThrottleStore(database: database))
    }

    /// A fresh fixture on this backend.
    func fixture() async throws -> StoreFixture {
        let commits = CommitRecorder()
        return StoreFixture(stores: try await make(commits), commits: commits)
    }
}

/// One backend's stores, by their protocols.
struct Stores: Sendable {
    let users: any UserStoring
    let profiles: any ProfileStoring
    let tweets: any TweetStoring
    let follows: any FollowStoring
    let likes: any LikeStoring
    let relations: any RelationStoring
    let notifications: any NotificationStoring
    let search: any TweetSearching
    let moderation: any ModerationStoring
    let accounts: any AccountLifecycleStoring
    let rateBuckets: any RateBucketStoring
    let throttle: any ThrottleStoring
}

/// A test's stores and what they reported.
struct StoreFixture: Sendable {
    let stores: Stores
    let commits: CommitRecorder

    var users: any UserStoring { stores.users }
    var profiles: any ProfileStoring { stores.profiles }
    var tweets: any TweetStoring { stores.tweets }
    var follows: any FollowStoring { stores.follows }
    var likes: any LikeStoring { stores.likes }
    var relations: any RelationStoring { stores.relations }
    var notifications: any NotificationStoring { stores.notifications }
    var search: any TweetSearching { stores.search }
    var moderation: any ModerationStoring { stores.moderation }
    var accounts: any AccountLifecycleStoring { stores.accounts }
    var rateBuckets: any RateBucketStoring { stores.rateBuckets }
    var throttle: any ThrottleStoring { stores.throttle }

    /// A new account named `name`.
    func user(_ name: String) async throws -> User {
        try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil)
    }

    /// Posts `text` as `user` (a reply when `inReplyTo` is given).
    func post(_ text: String, by user: User, inReplyTo parent: Int64? = nil) async throws -> Tweet {
        try await tweets.postTweet(PostDraft(text: text, by: user.id, inReplyToID: parent))
    }
}

/// Records what a store reports, in the order it reports it.
final class CommitRecorder: TweetCommitObserving {
    private let recorded = Mutex<[TweetEvent]>([])

    var events: [TweetEvent] { recorded.withLock { $0 } }

    func committed(_ events: [TweetEvent]) {
        recorded.withLock { $0 += events }
    }
}
