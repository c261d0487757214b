import JSONRPC
import Logging
import Sodium
import Synchronization
import TwitterAPI
import TwitterAssembly
import TwitterCore

@testable import TwitterServer

/// The daemon's request path in process: the `ServiceAssembly` main serves, over an in-memory database, and
/// connections that answer JSON lines through its `RequestProcessor` as `ConnectionHandler` does. No process, no
/// socket: a method's rules are tested here, and the end-to-end suite keeps the wire.
final class InProcessDaemon: Sendable {
    /// The password every account made by `signUp(_:uid:)` has.
    static let password = "correct horse battery"

    /// The assembled services, for a test that looks behind the protocol.
    let services: ServiceAssembly
    /// The request path every connection calls.
    let processor: RequestProcessor<RequestContext>
    private let connectionIDs = Atomic<Int>(0)

    /// Assembles the daemon as `configure` says. Unlike the daemon's defaults, writes and signups are not
    /// rate-limited unless `configure` sets limits, and Argon2id runs at libsodium's smallest cost: these tests
    /// hash, they do not measure hashing.
    init(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        var configuration = ServerConfiguration(socketPath: "/unused", databasePath: ":memory:")
        configuration.auth.passwordOperations = 1
        configuration.auth.passwordMemoryBytes = 8 * 1024
        configuration.auth.hashingThreads = 1
        configuration.community.rates = [:]
        configuration.community.signupRate = nil
        configure(&configuration)
        let logger = Logger(label: "twitterd.in-process") { _ in SwiftLogNoOpLogHandler() }
        services = try ServiceAssembly(
            database: try .inMemory(), configuration: configuration,
            tokenKey: Sodium.shared.randomBytes(count: 32), logger: logger)
        // As the daemon does before it serves: the buckets a previous run left.
        try await services.tweets.rates.load()
        try await services.auth.signups.load()
        processor = services.makeProcessor(
            statistics: ServerStatistics(), settings: LiveSettings(limits: configuration.limits), logger: logger)
    }

    /// A new connection, not logged in, from a process the kernel says runs as `uid`.
    func connect(uid: UInt32 = 1000) -> Caller {
        let id = connectionIDs.add(1, ordering: .relaxed).newValue
        return Caller(
            id: id, peer: PeerCredentials(userID: uid, groupID: uid, processID: Int32(id)), processor: processor)
    }

    /// A new connection from `uid`, signed up as `username` (e-mail `username@example.com`, password `password`).
    func signUp(_ username: String, uid: UInt32 = 1000, password: String = InProcessDaemon.password) async throws
        -> Caller
    {
        let caller = connect(uid: uid)
        _ = try await caller.call(
            API.Auth.signup, .init(email: "\(username)@example.com", password: password, username: username))
        return caller
    }

    /// A new connection logged in as an admin: root (uid 0) signs up `username`, links its uid to it and logs in
    /// through that link, which makes root an admin.
    func admin(_ username: String = "root") async throws -> Caller {
        let root = try await signUp(username, uid: 0)
        _ = try await root.call(API.Auth.linkPeer, .init(password: Self.password))
        _ = try await root.call(API.Auth.login, .init(provider: "peer", credentials: [:]))
        return root
    }
}
