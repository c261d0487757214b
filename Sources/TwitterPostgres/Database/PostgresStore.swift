import Foundation
import Logging
import PostgresNIO
import TwitterCore

/// A twitterd database on a PostgreSQL server: a bounded pool of connections (postgres-nio's `PostgresClient`,
/// run by a task this type owns), the schema's migrations, and the two ways the stores write.
///
/// Several daemons may share one database. What keeps them one service is here:
/// - `orderedWrite`, for every write that creates ids readers page by (tweets, notifications) or that the read
///   model must learn of: one at a time in this daemon, and under a transaction-level advisory lock across
///   daemons, so ids are given out in commit order and a reader that has seen id N never later finds a new
///   id below N; its events are reported to the observer in that order.
/// - `transaction`, for the other writes (tokens, throttles, profiles), which any connection may run at once.
public final class PostgresStore: HealthChecking, Sendable {
    /// Where the database is.
    public let location: PostgresLocation
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private let writeOrder = AsyncLock()
    let logger: Logger

    /// The advisory lock every ordered write holds until its commit. ("tw-order" in ASCII.)
    static let orderLock: Int64 = 0x7477_2d6f_7264_6572

    /// The pool's size when the configuration names none: enough for the event loops' concurrent reads on a
    /// small machine, few enough that several daemons stay under the server's default 100 connections.
    public static let defaultPoolSize = 16

    private init(location: PostgresLocation, client: PostgresClient, logger: Logger) {
        self.location = location
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    /// Connects to `location` with a pool of at most `poolSize` connections, checks that the server answers,
    /// and applies the pending migrations (under an advisory lock) unless `migrate` is false.
    public static func open(
        _ location: PostgresLocation, password: String? = nil, poolSize: Int = defaultPoolSize,
        migrate: Bool = true, logger: Logger
    ) async throws -> PostgresStore {
        var configuration =
            switch location.endpoint {
            case .socket:
                PostgresClient.Configuration(
                    unixSocketPath: location.socketPath ?? "", username: location.user, password: password,
                    database: location.database)
            case .tcp(let host):
                PostgresClient.Configuration(
                    host: host, port: location.port, username: location.user, password: password,
                    database: location.database, tls: .disable)
            }
        configuration.options.maximumConnections = max(2, poolSize)
        configuration.options.minimumConnections = 1
        // Named outright rather than trusted to the server's default: an answered write is on disk.
        configuration.options.additionalStartupParameters = [
            ("synchronous_commit", "on"), ("application_name", "twitterd"), ("TimeZone", "UTC"),
        ]
        let store = PostgresStore(
            location: location, client: PostgresClient(configuration: configuration, backgroundLogger: logger),
            logger: logger)
        do {
            try await store.ping()
            if migrate { try await PostgresSchema.migrate(store.client, logger: logger) }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Every store on this database, reporting committed changes to `observer`.
    public func stores(observer: any TweetCommitObserving) -> StoreSet {
        StoreSet(
            users: UserStore(database: self), profiles: ProfileStore(database: self),
            tokens: TokenStore(database: self), peerLinks: PeerLinkStore(database: self),
            throttle: ThrottleStore(database: self), tweets: TweetStore(database: self, observer: observer),
            follows: FollowStore(database: self, observer: observer),
            likes: LikeStore(database: self, observer: observer),
            relations: RelationStore(database: self, observer: observer),
            notifications: NotificationStore(database: self), search: SearchStore(database: self),
            moderation: ModerationStore(database: self, observer: observer),
            accounts: AccountStore(database: self, observer: observer), rateBuckets: RateBucketStore(database: self),
            health: self)
    }

    /// Answers when the server answers a query; throws otherwise.
    public func ping() async throws {
        try await read { connection in try await connection.run("SELECT 1") }
    }

    /// The server's version, e.g. "15.18".
    public func serverVersion() async throws -> String {
        try await read { connection in
            try await connection.value("SHOW server_version", as: String.self) ?? "unknown"
        }
    }

    /// The schema version the database is at.
    public func schemaVersion() async throws -> Int {
        try await read { connection in
            try await connection.value("SELECT max(version) FROM schema_migration", as: Int.self) ?? 0
        }
    }

    /// Stops the pool; later calls fail.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    /// Runs `body` on a pooled connection, outside any transaction: reads.
    func read<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        try await client.withConnection { connection in try await body(connection) }
    }

    /// Runs `body` in a transaction on a pooled connection: writes that give out no ordered ids and report no
    /// events.
    func transaction<Result: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        try await client.withConnection { connection in try await connection.inTransaction(body) }
    }

    /// Runs `body` as an ordered write (see the type's comment) and, once committed, reports the events it
    /// returned to `observer` before the next ordered write starts.
    func orderedWrite<Result: Sendable>(
        reportingTo observer: any TweetCommitObserving,
        _ body: @Sendable (PostgresConnection) async throws -> (Result, [TweetEvent])
    ) async throws -> Result {
        try await writeOrder.withLock {
            let (result, events) = try await client.withConnection { connection in
                try await connection.inTransaction { connection in
                    try await connection.run("SELECT pg_advisory_xact_lock(\(Self.orderLock))")
                    return try await body(connection)
                }
            }
            if !events.isEmpty { observer.committed(events) }
            return result
        }
    }
}
