import JSONRPC

extension API.System {
    /// `system.version`'s answer.
    public struct Version: Codable, Sendable, Equatable {
        /// twitterd's version.
        public var version: String
        /// The protocol version.
        public var `protocol`: String
        /// The Swift compiler that built it.
        public var swift: String
        /// The libsodium library version.
        public var libsodium: String
        /// The SQLite library version.
        public var sqlite: String
        /// The store the daemon serves from: `sqlite` or `postgresql`.
        public var store: String
        /// That store's version: SQLite's, or the PostgreSQL server's.
        public var storeVersion: String

        /// Creates the value from its members.
        public init(
            version: String, protocol: String, swift: String, libsodium: String, sqlite: String, store: String,
            storeVersion: String
        ) {
            self.version = version
            self.protocol = `protocol`
            self.swift = swift
            self.libsodium = libsodium
            self.sqlite = sqlite
            self.store = store
            self.storeVersion = storeVersion
        }
    }

    // @MemberwiseInit
    /// `system.health`'s answer.
    public struct Health: Codable, Sendable, Equatable {
        /// `ok`; `degraded` when the database does not answer; `failed` once it can no longer make writes durable.
        public var status: String
        /// Seconds since the daemon started.
        public var uptimeSeconds: Int
        /// Connections served now.
        public var connections: Int
        /// Requests handled since start.
        public var requestsServed: Int
        /// The store the daemon serves from: `sqlite` or `postgresql`.
        public var store: String
    }

    // @MemberwiseInit
    /// `system.limits`' answer.
    public struct Limits: Codable, Sendable, Equatable {
        /// The longest tweet, in characters (`[tweets] max_length`).
        public var tweetMaximumLength: Int
    }

    /// `system.limits`.
    public static let limits = RPCMethod<NoParams, Limits>(
        MethodDescriptor(
            "system.limits", summary: "What this daemon accepts: the longest tweet.",
            result: .object(
                [
                    Property(
                        "tweetMaximumLength", .integer("The longest tweet, in characters ([tweets] max_length)."),
                        required: true)
                ], title: "Limits"),
            access: .open, positional: true
        ))

    /// `system.ping`.
    public static let ping = RPCMethod<NoParams, String>(
        MethodDescriptor(
            "system.ping", summary: "Answers \"pong\"; a liveness check.", result: .string("Always \"pong\"."),
            access: .open, positional: true
        ))

    /// `system.version`.
    public static let version = RPCMethod<NoParams, Version>(
        MethodDescriptor(
            "system.version", summary: "The daemon's version and the versions of what it runs on.",
            result: .object(
                [
                    Property("version", .string("twitterd's version."), required: true),
                    Property("protocol", .string("The protocol version."), required: true),
                    Property("swift", .string("The Swift compiler that built it."), required: true),
                    Property("libsodium", .string("The libsodium library version."), required: true),
                    Property("sqlite", .string("The SQLite library version."), required: true),
                    Property(
                        "store", .oneOfStrings(["sqlite", "postgresql"], "The store the daemon serves from."),
                        required: true),
                    Property(
                        "storeVersion", .string("That store's version: SQLite's, or the PostgreSQL server's."),
                        required: true),
                ], title: "Version"
            ),
            access: .open, positional: true
        ))

    /// `system.health`.
    public static let health = RPCMethod<NoParams, Health>(
        MethodDescriptor(
            "system.health", summary: "Whether the daemon and its database answer, with live counters.",
            result: .object(
                [
                    Property(
                        "status",
                        .oneOfStrings(
                            ["ok", "degraded", "failed"],
                            "\"degraded\" when the database does not answer; \"failed\" once it can no longer make "
                                + "writes durable (a failed sync), until the daemon is restarted."),
                        required: true),
                    Property("uptimeSeconds", .integer("Seconds since start."), required: true),
                    Property("connections", .integer("Connections served now."), required: true),
                    Property("requestsServed", .integer("Requests handled since start."), required: true),
                    Property(
                        "store", .oneOfStrings(["sqlite", "postgresql"], "The store the daemon serves from."),
                        required: true),
                ], title: "Health"
            ),
            access: .open, positional: true
        ))

    /// The OpenRPC document, kept as raw JSON: a client reads what it needs from it.
    public static let discover = RPCMethod<NoParams, JSONValue>(
        MethodDescriptor(
            "rpc.discover", summary: "An OpenRPC 1.x document describing every method.",
            result: .freeObject("The OpenRPC document."), access: .open, positional: true
        ))
}
