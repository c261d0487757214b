import Foundation
import JSONRPC
import Logging
import MastodonAPI
import Sodium
import Synchronization
import TestSupport
import TwitterAPI
import TwitterAssembly
import TwitterCore
import TwitterServer

@testable import HTTPTransport

/// The HTTP transport over the daemon's own assembly (an in-memory database), listening on a real Unix socket
/// and on 127.0.0.1 with a port of the kernel's choosing, serving a few test endpoints that call the layer.
final class HTTPFixture: Sendable {
    static let password = "correct horse battery"

    let services: ServiceAssembly
    let processor: RequestProcessor<RequestContext>
    let directory: String
    let socketPath: String
    let port: Int
    private let task: Task<Void, any Error>

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        directory = try TemporaryDirectory.make()
        socketPath = directory + "/http.sock"
        var configuration = ServerConfiguration(socketPath: directory + "/twitterd.sock", databasePath: ":memory:")
        configuration.auth.passwordOperations = 1
        configuration.auth.passwordMemoryBytes = 8 * 1024
        configuration.auth.hashingThreads = 1
        configuration.community.rates = [:]
        configuration.community.signupRate = nil
        configure(&configuration)
        let logger = Logger(label: "twitterd.http-test") { _ in SwiftLogNoOpLogHandler() }
        services = try ServiceAssembly(
            database: try .inMemory(), configuration: configuration, tokenKey: Sodium.shared.randomBytes(count: 32),
            logger: logger)
        let statistics = ServerStatistics()
        let settings = LiveSettings(limits: configuration.limits)
        processor = services.makeProcessor(statistics: statistics, settings: settings, logger: logger)
        let served = AsyncStream.makeStream(of: [String].self)
        let server = HTTPServer(
            configuration: configuration, settings: settings, processor: processor, statistics: statistics,
            listeners: [.unix(path: socketPath), .tcp(host: "127.0.0.1", port: 0)], endpoints: Self.endpoints,
            logger: logger, onListening: { served.continuation.yield($0) })
        task = Task { try await server.run() }
        var addresses: [String] = []
        for await list in served.stream {
            addresses = list
            break
        }
        guard let url = addresses.first(where: { $0.hasPrefix("http://") }),
            let port = Int(url.split(separator: ":").last ?? "")
        else { throw POSIXError(.EADDRNOTAVAIL) }
        self.port = port
    }

    deinit { task.cancel() }

    /// A Unix-socket client.
    func unixClient() throws -> HTTPTestClient { HTTPTestClient(try RawSocket(path: socketPath, timeoutSeconds: 30)) }

    /// A loopback TCP client.
    func tcpClient() throws -> HTTPTestClient {
        HTTPTestClient(try RawSocket(host: "127.0.0.1", port: port, timeoutSeconds: 30))
    }

    /// Signs `username` up and gives a personal token (`tokens.create`), as a client pastes one.
    func personalToken(_ username: String) async throws -> (token: String, id: Int64) {
        let session = ConnectionSession(id: 1, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))
        let context = RequestContext(session: session)
        _ = try await processor.call(
            API.Auth.signup,
            .init(email: "\(username)@example.com", password: Self.password, username: username), context: context)
        let created = try await processor.call(
            API.Tokens.create, .init(name: "mastodon", password: Self.password), context: context)
        return (created.token, created.id)
    }

    /// Revokes token `id` through the layer, as `tokens.revoke` on the socket would.
    func revoke(_ token: String, id: Int64) async throws {
        let session = ConnectionSession(id: 2, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))
        let context = RequestContext(session: session)
        _ = try await processor.call(
            API.Auth.login, .init(provider: "token", credentials: .object(["token": .string(token)])), context: context)
        _ = try await processor.call(API.Tokens.revoke, .init(id: id), context: context)
    }

    /// `GET /test/whoami` (the caller's username), `POST|DELETE /test/echo` (the params back, sorted),
    /// `GET /test/items/:id`, `GET /test/text` (its own lower-case `content-type`), and the real OAuth and
    /// instance endpoints.
    static let endpoints: [MastodonEndpoint] =
        OAuthEndpoints.all + testEndpoints
        + MastodonRoutes.all.filter { $0.path.hasPrefix("/api/v1/instance") || $0.path.hasPrefix("/api/v2/instance") }

    private static let testEndpoints: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/test/text") { _, _ in
            MastodonResponse(
                status: 200, headers: [MastodonHeader(name: "content-type", value: "text/plain; charset=utf-8")],
                body: Array("plain".utf8))
        },
        MastodonEndpoint("GET", "/api/v1/test/whoami") { _, caller in
            let whoami = try await caller.call(API.Auth.whoami)
            return json(["username": .string(whoami.user.username)])
        },
        MastodonEndpoint("POST", "/api/v1/test/echo") { request, _ in echo(request) },
        MastodonEndpoint("DELETE", "/api/v1/test/echo") { request, _ in echo(request) },
        MastodonEndpoint("GET", "/api/v1/test/items/:id") { request, _ in
            json(["id": .string(request.pathParameters["id"] ?? "")])
        },
        MastodonEndpoint("GET", "/api/v1/test/large") { _, _ in
            MastodonResponse(status: 200, headers: [], body: largeBody)
        },
    ]

    /// What `GET /test/large` answers: 100 items, 4 KB or so of JSON, worth compressing.
    static let largeBody = Array(
        JSONValue.array((1...100).map { .object(["id": .string(String($0)), "text": .string("item \($0)")]) })
            .serialized.utf8)

    private static func echo(_ request: MastodonRequest) -> MastodonResponse {
        var members: [String: JSONValue] = [:]
        for (key, values) in request.params.values { members[key] = .array(values.map { .string($0) }) }
        if let key = request.idempotencyKey { members["idempotencyKey"] = .string(key) }
        members["origin"] = .string(request.origin)
        return json(members)
    }

    private static func json(_ members: [String: JSONValue]) -> MastodonResponse {
        MastodonResponse(status: 200, headers: [], body: Array(JSONValue.object(members).serialized.utf8))
    }
}

/// A blocking HTTP/1.1 client over a raw socket: exact bytes out, responses parsed by Content-Length.
final class HTTPTestClient: @unchecked Sendable {
    // @unchecked: one test owns it.
    let socket: RawSocket

    init(_ socket: RawSocket) {
        self.socket = socket
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var bytes: [UInt8]
        var body: String { String(decoding: bytes, as: UTF8.self) }
        var json: JSONValue? { try? JSONParser().parse(body) }
    }

    /// Sends one request; `Host: localhost` unless `host` says otherwise (nil: no Host header).
    @discardableResult
    func send(
        _ method: String, _ target: String, host: String? = "localhost", headers: [String: String] = [:],
        body: String = ""
    ) -> Bool {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + body
        return socket.send(text)
    }

    /// Reads one response; nil when the connection ends first.
    func read() -> Response? {
        guard var response = readHead() else { return nil }
        let length = response.headers["content-length"].flatMap { Int($0) } ?? 0
        guard let body = length == 0 ? [] : socket.readBytes(length) else { return nil }
        response.bytes = body
        return response
    }

    /// Reads a response's status and fields.
    private func readHead() -> Response? {
        guard let statusLine = socket.readLine() else { return nil }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        while let line = socket.readLine()?.trimmingCharacters(in: CharacterSet(charactersIn: "\r")), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, bytes: [])
    }

    /// Sends one request and reads its response.
    func call(
        _ method: String, _ target: String, host: String? = "localhost", headers: [String: String] = [:],
        body: String = ""
    ) -> Response? {
        guard send(method, target, host: host, headers: headers, body: body) else { return nil }
        return read()
    }
}

extension HTTPFixture {
    /// Registers an OAuth app and grants its own token (`client_credentials`), as Mastodon.py does before logging
    /// in: the app's name and the token.
    func appToken(_ name: String) async throws -> String {
        let session = ConnectionSession(id: 4, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))
        let context = RequestContext(session: session)
        let app = try await processor.call(
            API.OAuth.register, .init(name: name, redirectUris: ["urn:ietf:wg:oauth:2.0:oob"]), context: context)
        let granted = try await processor.call(
            API.OAuth.token,
            .init(grantType: "client_credentials", clientId: app.clientId, clientSecret: app.clientSecret ?? ""),
            context: context)
        return granted.accessToken
    }

    /// Posts `text` as the holder of `token`, through the layer, as a JSON-RPC client would.
    func post(_ text: String, token: String) async throws {
        let session = ConnectionSession(id: 3, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))
        let context = RequestContext(session: session)
        _ = try await processor.call(
            API.Auth.login, .init(provider: "token", credentials: .object(["token": .string(token)])), context: context)
        _ = try await processor.call(API.Tweets.post, .init(text: text), context: context)
    }
}
