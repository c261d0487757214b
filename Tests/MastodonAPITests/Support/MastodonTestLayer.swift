import JSONRPC
import Logging
import MastodonAPI
import Sodium
import Synchronization
import TwitterAPI
import TwitterAssembly
import TwitterCore
import TwitterServer

/// The daemon's request layer in process, over an in-memory SQLite database, as the HTTP transport reaches it:
/// each account is a `ConnectionSession` logged in through the layer, and its Mastodon requests go through
/// `RequestProcessor.call`, the same route, middleware and handlers a JSON-RPC line meets.
final class MastodonTestLayer: Sendable {
    static let password = "correct horse battery"
    static let origin = "http://127.0.0.1:3000"

    let processor: RequestProcessor<RequestContext>
    private let connectionIDs = Atomic<Int>(0)

    init() async throws {
        var configuration = ServerConfiguration(socketPath: "/unused", databasePath: ":memory:")
        configuration.auth.passwordOperations = 1
        configuration.auth.passwordMemoryBytes = 8 * 1024
        configuration.auth.hashingThreads = 1
        configuration.community.rates = [:]
        configuration.community.signupRate = nil
        let logger = Logger(label: "mastodon-tests") { _ in SwiftLogNoOpLogHandler() }
        let services = try ServiceAssembly(
            database: try .inMemory(), configuration: configuration,
            tokenKey: Sodium.shared.randomBytes(count: 32), logger: logger)
        try await services.tweets.rates.load()
        try await services.auth.signups.load()
        processor = services.makeProcessor(
            statistics: ServerStatistics(), settings: LiveSettings(limits: configuration.limits), logger: logger)
    }

    /// A new account `username`, logged in on a session of its own, whose notification lines go to `deliver`.
    func signUp(_ username: String, deliver: @escaping @Sendable ([UInt8]) -> Void = { _ in }) async throws
        -> LayerCaller
    {
        let id = connectionIDs.add(1, ordering: .relaxed).newValue
        let session = ConnectionSession(
            id: id, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1), sendNotification: deliver)
        let caller = LayerCaller(session: session, processor: processor)
        _ = try await caller.call(
            API.Auth.signup, .init(email: "\(username)@example.com", password: Self.password, username: username))
        return caller
    }
}

/// A `MastodonCaller` over the layer, as the HTTP transport's: typed calls through `RequestProcessor.encodedCall` as the
/// session's account.
struct LayerCaller: MastodonCaller {
    let session: ConnectionSession
    let processor: RequestProcessor<RequestContext>

    func encodedCall<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(RPCError)
        -> [UInt8]
    {
        try await processor.encodedCall(method, params, context: RequestContext(session: session))
    }

    /// Starts the forwarders of the subscriptions the last calls made, as a transport does once their answer is
    /// out: each sends its lines to `deliver` until the session ends.
    func startForwarders(_ deliver: @escaping @Sendable ([UInt8]) -> Void) -> [Task<Void, Never>] {
        session.takeForwardersToStart().map { forwarder in
            Task { [session] in
                await forwarder.run { line in
                    guard session.isServingSubscriptions else { throw CancellationError() }
                    deliver(line)
                }
                _ = session.cancelSubscription(forwarder.id)
            }
        }
    }

    /// Serves one request to the endpoint `method path` of `MastodonRoutes.all`, as the HTTP transport routes it.
    func request(
        _ method: String, _ path: String, _ params: [String: [String]] = [:], idempotencyKey: String? = nil
    ) async throws -> MastodonResponse {
        let (endpoint, captured) = try MastodonRouteMatch.find(method, path)
        let request = MastodonRequest(
            method: method, pathParameters: captured, params: MastodonParams(params),
            origin: MastodonTestLayer.origin, idempotencyKey: idempotencyKey)
        return try await endpoint.handle(request, self)
    }

    /// The answer's body as JSON.
    func json(
        _ method: String, _ path: String, _ params: [String: [String]] = [:], idempotencyKey: String? = nil
    ) async throws -> JSONValue {
        let response = try await request(method, path, params, idempotencyKey: idempotencyKey)
        return try JSONParser(maximumDepth: 512).parse(response.body)
    }
}

/// Finds an endpoint by method and path as a router would: `:name` segments capture.
enum MastodonRouteMatch {
    struct NoRoute: Error, CustomStringConvertible {
        let description: String
    }

    static func find(_ method: String, _ path: String) throws -> (MastodonEndpoint, [String: String]) {
        let segments = path.split(separator: "/").map(String.init)
        var best: (MastodonEndpoint, [String: String], Int)?
        for endpoint in MastodonRoutes.all where endpoint.method == method {
            let pattern = endpoint.path.split(separator: "/").map(String.init)
            guard pattern.count == segments.count else { continue }
            var captured: [String: String] = [:]
            var literal = 0
            var matches = true
            for (part, segment) in zip(pattern, segments) {
                if part.hasPrefix(":") {
                    captured[String(part.dropFirst())] = segment
                } else if part == segment {
                    literal += 1
                } else {
                    matches = false
                    break
                }
            }
            // A literal segment wins over a capture (`/accounts/lookup` over `/accounts/:id`), as in a trie.
            if matches, literal > (best?.2 ?? -1) { best = (endpoint, captured, literal) }
        }
        guard let best else { throw NoRoute(description: "no endpoint \(method) \(path)") }
        return (best.0, best.1)
    }
}
