import JSONRPC
import TwitterCore

/// `system.*` and `rpc.discover`: the methods any connection may call to see that the daemon is alive.
struct SystemMethods {
    let database: any HealthChecking
    let versions: ComponentVersions
    let statistics: ServerStatistics

    struct Version: Encodable {
        let version: String
        let `protocol`: String
        let swift: String
        let libsodium: String
        let sqlite: String
    }

    struct Health: Encodable {
        let status: String
        let uptimeSeconds: Int
        let connections: Int
        let requestsServed: Int
    }

    func register(in router: inout Router<RequestContext>) {
        router.register(Self.ping, .immediate { (_: NoParams, _) in .now("pong") })
        router.register(
            Self.version,
            .awaited { [versions] (_: NoParams, _) in
                Version(
                    version: TwitterdVersion.current, protocol: TwitterdVersion.protocolVersion,
                    swift: TwitterdVersion.swift, libsodium: versions.libsodium, sqlite: versions.sqlite
                )
            })
        router.register(
            Self.health,
            .awaited { [database, statistics] (_: NoParams, _) in
                let databaseAnswers = (try? await database.ping()) != nil
                return Health(
                    status: databaseAnswers ? "ok" : "degraded", uptimeSeconds: statistics.uptimeSeconds,
                    connections: statistics.connections, requestsServed: statistics.requestsServed
                )
            })
    }

    /// `rpc.discover` describes every method, itself included, so it is registered last.
    static func registerDiscovery(in router: inout Router<RequestContext>) {
        let methods = router.descriptors + [discover]
        let document = OpenRPCDocument.make(title: "twitterd", version: TwitterdVersion.current, methods: methods)
        router.register(discover, .immediate { (_: NoParams, _) in .now(document) })
    }

    static let ping = MethodDescriptor(
        "system.ping", summary: "Answers \"pong\"; a liveness check.", result: .string("Always \"pong\"."),
        access: .open, positional: true
    )

    static let version = MethodDescriptor(
        "system.version", summary: "The daemon's version and the versions of what it runs on.",
        result: .object(
            [
                Property("version", .string("twitterd's version."), required: true),
                Property("protocol", .string("The protocol version."), required: true),
                Property("swift", .string("The Swift compiler that built it."), required: true),
                Property("libsodium", .string("The libsodium library version."), required: true),
                Property("sqlite", .string("The SQLite library version."), required: true),
            ], title: "Version"
        ),
        access: .open, positional: true
    )

    static let health = MethodDescriptor(
        "system.health", summary: "Whether the daemon and its database answer, with live counters.",
        result: .object(
            [
                Property(
                    "status", .oneOfStrings(["ok", "degraded"], "\"degraded\" when the database does not answer."),
                    required: true),
                Property("uptimeSeconds", .integer("Seconds since start."), required: true),
                Property("connections", .integer("Connections served now."), required: true),
                Property("requestsServed", .integer("Requests handled since start."), required: true),
            ], title: "Health"
        ),
        access: .open, positional: true
    )

    static let discover = MethodDescriptor(
        "rpc.discover", summary: "An OpenRPC 1.x document describing every method.",
        result: .freeObject("The OpenRPC document."), access: .open, positional: true
    )
}
