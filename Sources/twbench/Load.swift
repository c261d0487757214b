import ArgumentParser
import Foundation
import JSONRPC
import NIOCore
import NIOPosix
import TwitterClient

/// `twbench load`: many connections, each keeping `depth` requests in flight, for `duration` seconds.
struct Load: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a load and report requests/s and latency.")

    @Option(help: "The socket to load.")
    var socket: String

    @Option(help: "Connections at once.")
    var connections = 1

    @Option(help: "Requests in flight per connection.")
    var depth = 1

    @Option(help: "Seconds of load.")
    var duration = 5.0

    @Option(
        help: """
            ping, fetch, post, login, mix (90% fetch, 10% post), home (each connection as seedN), search, \
            dmsend or dmlist (messages.send and messages.list in seed1's conversation with seed2).
            """)
    var method = Workload.ping

    @Option(help: "Seeded accounts to log in as (seed1…seedN) for --method login.")
    var accounts = 1

    @Option(help: "The account fetch, post and mix run as.")
    var email = "seed1@example.com"

    @Option(help: "Its password.")
    var password = "seed-password"

    @Flag(help: "Also run one ping connection at depth 1 and report its latency separately.")
    var probe = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard connections >= 1, depth >= 1, duration > 0 else {
            throw ValidationError("--connections, --depth and --duration must be positive.")
        }
    }

    func run() async throws {
        let setups = try await Self.setups(
            for: method, connections: connections, socket: socket, email: email, password: password)
        let conversation =
            method == .dmsend || method == .dmlist
            ? try await Self.conversation(socket: socket, email: email, password: password) : 0
        let started = NIODeadline.now()
        let deadline = started + .nanoseconds(Int64(duration * 1_000_000_000))
        async let probeStats: ConnectionStats? =
            probe
            ? try Self.drive(socket: socket, workload: .ping, depth: 1, deadline: deadline, account: 1, setup: [])
            : nil
        let stats = try await withThrowingTaskGroup(of: ConnectionStats.self) { group in
            for index in 0..<connections {
                let account = index % max(accounts, 1) + 1
                let setup = setups[index % setups.count]
                group.addTask {
                    try await Self.drive(
                        socket: socket, workload: method, depth: depth, deadline: deadline, account: account,
                        setup: setup, conversation: conversation
                    )
                }
            }
            var total = ConnectionStats()
            for try await one in group { total.merge(one) }
            return total
        }
        let seconds = Double(NIODeadline.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var reports = [
            Report(method: method.rawValue, connections: connections, depth: depth, seconds: seconds, stats: stats)
        ]
        if let probeStats = try await probeStats {
            reports.append(
                Report(method: "ping (probe)", connections: 1, depth: 1, seconds: seconds, stats: probeStats))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        } else {
            print(reports.map(\.text).joined(separator: "\n"))
        }
        if stats.errors > 0 { throw ExitCode(1) }
    }

    /// One connection's load.
    static func drive(
        socket: String, workload: Workload, depth: Int, deadline: NIODeadline, account: Int, setup: [Request],
        conversation: Int64 = 0
    ) async throws -> ConnectionStats {
        let group = MultiThreadedEventLoopGroup.singleton
        let loop = group.next()
        let done = loop.makePromise(of: ConnectionStats.self)
        let channel = try await ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    try channel.pipeline.syncOperations.addHandler(
                        BenchConnectionHandler(
                            workload: workload, depth: depth, deadline: deadline, account: account, setup: setup,
                            conversation: conversation, done: done
                        )
                    )
                }
            }
            .connect(unixDomainSocketPath: socket).get()
        defer { channel.close(promise: nil) }
        return try await done.futureResult.get()
    }

    /// What each connection sends before the load: nothing, one shared login, or, for home timelines, a login
    /// as a seeded account of its own (seed1, seed2…). The passwords are checked here, before the clock starts.
    static func setups(
        for workload: Workload, connections: Int, socket: String, email: String, password: String
    ) async throws -> [[Request]] {
        guard workload.needsLogin else { return [[]] }
        guard workload.needsOwnAccount else {
            return [[Request.tokenLogin(try await sessionToken(socket: socket, email: email, password: password))]]
        }
        var setups: [[Request]] = []
        for account in 1...connections {
            let token = try await sessionToken(socket: socket, email: "seed\(account)@example.com", password: password)
            setups.append([Request.tokenLogin(token)])
        }
        return setups
    }

    /// Logs in once with a password, so the load connections can log in with the session token.
    static func sessionToken(socket: String, email: String, password: String) async throws -> String {
        try await RPCConnection.withConnection(socketPath: socket) { connection in
            let result = try await connection.call(
                "auth.login",
                ["provider": "password", "credentials": ["email": .string(email), "password": .string(password)]]
            )
            guard case .string(let token)? = result["session"]?["token"] else {
                throw ClientError.invalidResponse("no session token")
            }
            return token
        }
    }

    /// The conversation of the account `email` with seed2, who is made to take messages from everyone; the
    /// first message makes it, before the clock starts, so the loads measure sends and reads, not set-up.
    static func conversation(socket: String, email: String, password: String) async throws -> Int64 {
        try await RPCConnection.withConnection(socketPath: socket) { recipient in
            _ = try await recipient.call(
                "auth.login",
                [
                    "provider": "password",
                    "credentials": ["email": "seed2@example.com", "password": .string(password)],
                ])
            _ = try await recipient.call("profile.update", ["messagesFrom": "everyone"])
        }
        return try await RPCConnection.withConnection(socketPath: socket) { sender in
            _ = try await sender.call(
                "auth.login",
                ["provider": "password", "credentials": ["email": .string(email), "password": .string(password)]])
            let sent = try await sender.call(
                "messages.send", ["to": ["seed2"], "text": "twbench opens the conversation"])
            guard case .number(let id)? = sent["conversationId"], let conversation = id.int else {
                throw ClientError.invalidResponse("no conversationId")
            }
            return Int64(conversation)
        }
    }
}
