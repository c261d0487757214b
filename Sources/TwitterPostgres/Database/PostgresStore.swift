import Foundation
import Logging
import PostgresNIO  // and NIOSSL, which it re-exports, for its TLS
import Synchronization
import TwitterCore
import TwitterRuntime
import TwitterSQL

/// A twitterd database on a PostgreSQL server: a bounded pool of connections (postgres-nio's `PostgresClient`,
/// run by a task this type owns), the schema's migrations, and the two ways the stores write.
///
/// Several daemons may share one database. What keeps them one service is here:
/// - `orderedWrite`, for every write that creates ids readers page by (tweets, notifications) or that the read
///   model must learn of: one at a time in this daemon, and under a transaction-level advisory lock across
///   daemons, so ids are given out in commit order and a reader that has seen id N never later finds a new
///   id below N; its events are reported to the observer in that order.
/// - `CommitFeed`, which logs every ordered write's events in its transaction and delivers the log, this
///   daemon's entries and the others', to the observer in commit order, so every daemon's caches and live
///   streams see every commit.
/// - `transaction`, for the other writes (tokens, throttles, profiles), which any connection may run at once.
public final class PostgresStore: HealthChecking, Sendable {
    /// Where the database is.
    public let location: PostgresLocation
    let client: PostgresClient
    private let runner: Task<Void, Never>
    /// The calls waiting for a pooled connection, and the one task that gives up on those waiting too long.
    private let leases = LeaseDeadlines(timeout: PostgresStore.leaseTimeout)
    private let leaseWatcher: Task<Void, Never>
    private let writeOrder = AsyncLock()
    /// Other daemons' commits, and this one's, delivered in commit order.
    let feed: CommitFeed
    private let follower = Mutex<Task<Void, Never>?>(nil)
    let logger: Logger

    /// The advisory lock every ordered write holds until its commit. ("tw-order" in ASCII.)
    static let orderLock: Int64 = 0x7477_2d6f_7264_6572

    /// Takes `orderLock` (its one value), once per ordered write.
    enum OrderLock: SQLText { static let sql: SQLQuery = "SELECT pg_advisory_xact_lock($1)" }

    /// The event loops the pooled connections run on, threads of their own (`NIO-ELT-…`, one per core), not the
    /// daemon's loops. Every statement and its answer is handled on its connection's loop (`onItsLoop`), and an
    /// ordered write is a chain of six round trips; on a loop shared with the clients' connections each answer
    /// waited behind their reads and answers. Posts 64 × 4 were faster on loops of their own (bench/analysis-
    /// postgres.md, "Durable posts (#51)"). One loop per core rather than one: the database's reads (logins,
    /// searches, pages not cached) are spread over the cores as before. One group for the process, never shut
    /// down, as NIO's own singleton: a store's tasks that resume after its `close` still find their loop, and the
    /// stores a test process opens share it.
    static let loops = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)

    /// The pool's size when the configuration names none: enough for the event loops' concurrent reads on a
    /// small machine, few enough that several daemons stay under the server's default 100 connections.
    public static let defaultPoolSize = 16

    private init(location: PostgresLocation, configuration: PostgresClient.Configuration, logger: Logger) {
        self.location = location
        let client = PostgresClient(
            configuration: configuration, eventLoopGroup: Self.loops, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        feed = CommitFeed(logger: logger)
        runner = Task { await client.run() }
        leaseWatcher = Task { [leases] in await leases.watch() }
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
                    database: location.database, tls: try tls(location.tls))
            }
        configuration.options.maximumConnections = max(2, poolSize)
        configuration.options.minimumConnections = 1
        // Named outright rather than trusted to the server's default: an answered write is on disk.
        configuration.options.additionalStartupParameters = [
            ("synchronous_commit", "on"), ("application_name", "twitterd"), ("TimeZone", "UTC"),
        ]
        let store = PostgresStore(location: location, configuration: configuration, logger: logger)
        do {
            try await store.ping()
            if migrate { try await PostgresSchema.migrate(store.client, logger: logger) }
            if migrate {
                store.feed.start(
                    at: try await store.read { connection in
                        try await connection.value("SELECT coalesce(max(id), 0) FROM commit_events", as: Int64.self)
                            ?? 0
                    })
            }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// postgres-nio's TLS (swift-nio-ssl) for `mode`. With `require` the server's certificate is not checked, as
    /// libpq's; with `verify-full` it is, and its name against the host the URL names.
    static func tls(_ mode: PostgresLocation.TLSMode) throws -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable:
            return .disable
        case .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            return .require(configuration)
        case .verifyFull(let roots):
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .fullVerification
            if let roots {
                guard FileManager.default.isReadableFile(atPath: roots) else {
                    throw PostgresLocationError("sslrootcert \(roots) cannot be read")
                }
                configuration.trustRoots = .file(roots)
            }
            return .require(configuration)
        }
    }

    /// Every store on this database, reporting committed changes to `observer`: this daemon's and, from the
    /// commit log, every other daemon's on the same database.
    public func stores(observer: any CommitObserving, host: String = "") -> StoreSet {
        feed.attach(observer)
        follower.withLock { follower in
            if follower == nil { follower = Task { [self] in await feed.follow(self) } }
        }
        return StoreSet(
            on: PostgresSQLDatabase(store: self), committer: PostgresPostCommitter(database: self, observer: observer),
            observer: observer, search: SearchStore(database: self), health: self,
            otherDaemons: SharedDatabasePeers(database: self), host: host)
    }

    /// Hands the uid-keyed rows of no host (made before hosts were kept) to `host` (`HostClaim`): the first daemon
    /// to start after the migration takes them.
    public func claimRowsWithoutHost(for host: String) async throws {
        try await HostClaim(database: PostgresSQLDatabase(store: self), host: host).run()
    }

    /// A server answers, not this process: its silence makes the daemon degraded, never stuck.
    public var answersInProcess: Bool { false }

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

    /// Applies the migrations the database lacks, under the advisory lock; returns the versions applied.
    public func migrate() async throws -> [Int] {
        try await PostgresSchema.migrate(client, logger: logger)
    }

    /// The schema version the database is at.
    public func schemaVersion() async throws -> Int {
        try await read { connection in
            try await connection.value("SELECT max(version) FROM schema_migration", as: Int.self) ?? 0
        }
    }

    /// Stops the pool; later calls fail.
    public func close() async {
        if let follower = follower.withLock({ $0 }) {
            follower.cancel()
            await follower.value
        }
        runner.cancel()
        await runner.value
        leaseWatcher.cancel()
        await leaseWatcher.value
    }

    /// Runs `body` on a pooled connection, outside any transaction: reads.
    func read<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result)
        async throws -> Result
    {
        try await withConnection(body)
    }

    /// Runs `body` in a transaction on a pooled connection: writes that give out no ordered ids and report no
    /// events.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result)
        async throws -> Result
    {
        try await withConnection { connection in try await connection.inTransaction(body) }
    }

    /// Runs `body` as an ordered write (see the type's comment) and, once committed, reports the events it
    /// returned to `observer` before the next ordered write starts. A write that withdraws access returns once the
    /// other daemons have applied it (`CommitFeed.awaitAcknowledgements`), waiting outside the write order.
    func orderedWrite<Result: Sendable>(
        reportingTo observer: any CommitObserving,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> (Result, [CommitEvent])
    ) async throws -> Result {
        let (result, withdrawing) = try await writeOrder.withLock {
            defer { feed.writeEnded() }
            let (result, events, entry) = try await withConnection { [feed] connection in
                try await connection.inTransaction { connection in
                    try await PostgresSQLConnection(connection: connection).run(
                        SQLQuery(OrderLock.self, Self.orderLock))
                    let (result, events) = try await body(connection)
                    let entry = events.isEmpty ? nil : try await feed.record(events, in: connection)
                    return (result, events, entry)
                }
            }
            guard let entry else { return (result, nil as Int64?) }
            await feed.deliver(entry, events: events, to: observer, reading: self)
            return (result, events.contains(where: \.withdrawsAccess) ? entry : nil)
        }
        if let withdrawing { await feed.awaitAcknowledgements(of: withdrawing, reading: self) }
        return result
    }

    /// How long a request waits for a pooled connection before it is told the database does not answer; the
    /// pool goes on reconnecting meanwhile. Once a connection is leased, its queries take as long as they take.
    static let leaseTimeout: Duration = .seconds(2)

    /// Runs `body` on a pooled connection, giving up on the lease after `leaseTimeout` (`LeaseDeadlines`: one
    /// watcher for the store, not a timer per call); errors that say the server is unreachable become -32008
    /// (`Unreachable`).
    private func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let id = leases.reserve()
        defer { leases.end(id) }
        let call = Task { [client, leases] in
            leases.asking(id)
            return try await client.withConnection { connection in
                // Leased just as the watcher gave up: the caller has been answered -32008 already.
                guard leases.leased(id) else { throw CancellationError() }
                return try await connection.onItsLoop { try await body(connection) }
            }
        }
        leases.arm(id) { call.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await call.value
            } onCancel: {
                call.cancel()
            }
        } catch {
            if leases.lease(of: id) == .expired {
                throw TwitterError.unavailable(retryAfter: Unreachable.retryAfter, "The database does not answer")
            }
            throw Unreachable.translate(error)
        }
    }
}
