import Foundation
import GRDB
import Logging
import Synchronization
import TestSupport
import Testing
import TwitterCore
import TwitterSQL

@testable import TwitterPostgres
@testable import TwitterSQLite

/// A backend the store suite runs against. The suite's tests see only TwitterCore's store protocols, so a new
/// backend adds itself to `all` and every case runs on it unchanged.
struct StoreBackend: Sendable, CustomTestStringConvertible {
    let name: String
    /// Makes a fresh, empty set of stores reporting their commits to the observer, and a way to write rows
    /// straight into its tables.
    let make: @Sendable (any CommitObserving) async throws -> (StoreSet, RawRows, Hosts)

    var testDescription: String { name }

    /// Every backend this machine runs.
    static let all: [StoreBackend] = [.sqlite, .postgres]

    /// SQLite in a file of its own, in WAL mode like the daemon's.
    static let sqlite = StoreBackend(name: "SQLite") { observer in
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID()).sqlite").path
        let database = try AppDatabase.open(path: path)
        let raw = RawRows { count, parentID, authorID in
            try await database.writer.write { db in
                let insert = try db.makeStatement(
                    sql: "INSERT INTO tweets (author_id, text, created_at, in_reply_to_id) VALUES (?, ?, ?, ?)")
                let now = Date()
                for index in 0..<count { try insert.execute(arguments: [authorID, "reply \(index)", now, parentID]) }
            }
        } everyRow: {
            try await database.writer.read { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                return try tables.flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { row in
                        // Blobs as lowercase hex, as PostgreSQL shows a bytea.
                        table + ": "
                            + row.databaseValues.map { value in
                                if case .blob(let data) = value.storage {
                                    return "\\x" + data.map { String(format: "%02x", $0) }.joined()
                                }
                                return value.description
                            }.joined(separator: ",")
                    }
                }
            }
        }
        let hosts = Hosts(
            stores: { database.stores(observer: observer, host: $0) },
            claim: { try await database.claimRowsWithoutHost(for: $0) })
        return (database.stores(observer: observer), raw, hosts)
    }

    /// PostgreSQL: a database of its own in the run's throwaway cluster (`scripts/with-postgres.sh`), migrated
    /// by the store itself.
    static let postgres = StoreBackend(name: "PostgreSQL") { observer in
        let location = try PostgresLocation(url: try TestPostgres.freshDatabase())
        let store = try await PostgresStore.open(
            location, poolSize: 4, logger: Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
        let raw = RawRows { count, parentID, authorID in
            try await store.transaction { connection in
                try await connection.run(
                    """
                    INSERT INTO tweets (author_id, text, created_at, in_reply_to_id)
                    SELECT \(authorID), 'reply ' || n, now(), \(parentID) FROM generate_series(1, \(count)) AS n
                    """)
            }
        } everyRow: {
            try await everyRow(of: PostgresSQLDatabase(store: store))
        }
        let hosts = Hosts(
            stores: { store.stores(observer: observer, host: $0) },
            claim: { try await store.claimRowsWithoutHost(for: $0) })
        return (store.stores(observer: observer), raw, hosts)
    }

    /// Every row of every table of a PostgreSQL database, as text: a row as text shows a bytea as `\x` and hex.
    static func everyRow(of database: some SQLDatabase) async throws -> [String] {
        try await database.read { connection in
            let tables: [String] = try await connection.values(
                """
                SELECT table_name::text FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                """, as: String.self)
            var rows: [String] = []
            for table in tables {
                let texts: [String] = try await connection.values(
                    "SELECT \(unescaped: table)::text FROM \(unescaped: table)", as: String.self)
                rows += texts.map { table + ": " + $0 }
            }
            return rows
        }
    }

    /// A fresh fixture on this backend.
    func fixture() async throws -> StoreFixture {
        let commits = CommitRecorder()
        let (stores, raw, hosts) = try await make(commits)
        return StoreFixture(stores: stores, commits: commits, raw: raw, hosts: hosts)
    }
}

/// A test's stores and what they reported.
struct StoreFixture: Sendable {
    let stores: StoreSet
    let commits: CommitRecorder
    let raw: RawRows
    let hosts: Hosts

    var users: any UserStoring { stores.users }
    var profiles: any ProfileStoring { stores.profiles }
    var tokens: any TokenStoring { stores.tokens }
    var peerLinks: any PeerLinkStoring { stores.peerLinks }
    var tweets: any TweetStoring { stores.tweets }
    var follows: any FollowStoring { stores.follows }
    var likes: any LikeStoring { stores.likes }
    var bookmarks: any BookmarkStoring { stores.bookmarks }
    var pins: any PinStoring { stores.pins }
    var lists: any ListStoring { stores.lists }
    var relations: any RelationStoring { stores.relations }
    var notifications: any NotificationStoring { stores.notifications }
    var search: any TweetSearching { stores.search }
    var moderation: any ModerationStoring { stores.moderation }
    var accounts: any AccountLifecycleStoring { stores.accounts }
    var rateBuckets: any RateBucketStoring { stores.rateBuckets }
    var throttle: any ThrottleStoring { stores.throttle }

    /// The stores of the same database as a daemon of `host` has them: the rows a uid names are that host's.
    func onHost(_ host: String) -> StoreSet { hosts.stores(host) }

    /// What a daemon of `host` does at start: it claims the rows made before hosts were kept.
    func claim(_ host: String) async throws { try await hosts.claim(host) }

    /// A new account named `name`.
    func user(_ name: String) async throws -> User {
        try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil)
    }

    /// Posts `text` as `user` (a reply when `inReplyTo` is given).
    func post(_ text: String, by user: User, inReplyTo parent: Int64? = nil) async throws -> Tweet {
        try await tweets.post(PostDraft(text: text, by: user.id, inReplyToID: parent))
    }
}

/// The same database as daemons of several hosts see it.
struct Hosts: Sendable {
    /// The stores of `host`.
    let stores: @Sendable (String) -> StoreSet
    /// Claims the rows of no host for `host` (`HostClaim`).
    let claim: @Sendable (String) async throws -> Void
}

/// Rows written straight into a backend's tables, past the stores and their rules: for tests that need very
/// many quickly. Nothing is counted or reported.
struct RawRows: Sendable {
    /// Inserts `count` replies to tweet `parentID` by `authorID`, oldest first.
    let replies: @Sendable (_ count: Int, _ parentID: Int64, _ authorID: Int64) async throws -> Void
    /// Every row of every table (logs included), each as one line of text, bytes as `\x` and lowercase hex: for
    /// tests that a value is nowhere in the database.
    let everyRow: @Sendable () async throws -> [String]
}

/// Records what a store reports, in the order it reports it, and apart what it reports as another daemon's.
final class CommitRecorder: CommitObserving {
    private let recorded = Mutex<[CommitEvent]>([])
    private let recordedElsewhere = Mutex<[CommitEvent]>([])

    var events: [CommitEvent] { recorded.withLock { $0 } }
    /// The events reported as another daemon's (`committedElsewhere`), which `events` holds too.
    var elsewhere: [CommitEvent] { recordedElsewhere.withLock { $0 } }

    func committed(_ events: [CommitEvent]) {
        recorded.withLock { $0 += events }
    }

    func committedElsewhere(_ events: [CommitEvent]) {
        recordedElsewhere.withLock { $0 += events }
        committed(events)
    }
}
