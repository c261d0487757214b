import Foundation
import Logging
import TOMLKit
import TwitterCore

/// Reads the TOML configuration file and applies it over a configuration.
///
/// Unknown keys are errors rather than being ignored, so a misspelt limit never silently keeps its default.
public struct ConfigurationFile {
    /// The file's path, for messages.
    public let path: String
    private let table: TOMLTable

    /// Reads and parses the file at `path`.
    public init(path: String) throws(ConfigurationError) {
        self.path = path
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(key: "", problem: "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line
            throw ConfigurationError(key: "", problem: "\(path):\(line): \(error.description)")
        } catch {
            throw ConfigurationError(key: "", problem: "\(path): \(error)")
        }
    }

    /// Applies every key of the file to `configuration`, or throws naming the first bad key.
    public func apply(to configuration: inout ServerConfiguration) throws(ConfigurationError) {
        var reader = TOMLReader(table: table, prefix: "")
        if let socket = try reader.string("socket") { configuration.socketPath = socket }
        if let mode = try reader.string("socket_mode") { configuration.socketMode = try Self.fileMode(mode) }
        if reader.isTable("database"), var database = try reader.table("database") {
            try Self.apply(database: &database, to: &configuration)
            try database.rejectUnknownKeys()
        } else if let database = try reader.string("database") {
            configuration.databasePath = database
        }
        if let level = try reader.string("log_level") { configuration.logLevel = try Self.logLevel(level) }
        if let loops = try reader.int("event_loops", in: 1...256) { configuration.eventLoops = loops }
        if var limits = try reader.table("limits") {
            try Self.apply(limits: &limits, to: &configuration.limits)
            try limits.rejectUnknownKeys()
        }
        if var tweets = try reader.table("tweets") {
            if let value = try tweets.int("max_length", in: 1...10_000) { configuration.tweetMaximumLength = value }
            try tweets.rejectUnknownKeys()
        }
        if var auth = try reader.table("auth") {
            try Self.apply(auth: &auth, to: &configuration.auth)
            try auth.rejectUnknownKeys()
        }
        if var admin = try reader.table("admin") {
            if let users = try admin.stringArray("users") { configuration.community.adminUsers = users }
            if let groups = try admin.stringArray("groups") { configuration.community.adminGroups = groups }
            try admin.rejectUnknownKeys()
        }
        if var http = try reader.table("http") {
            if let addresses = try http.stringArray("listen") {
                configuration.http.listen = try addresses.map { (text) throws(ConfigurationError) in
                    try HTTPListenAddress(parsing: text, key: "http.listen")
                }
            }
            if let hosts = try http.stringArray("hosts") { configuration.http.hosts = hosts.map { $0.lowercased() } }
            try http.rejectUnknownKeys()
        }
        if var rates = try reader.table("rates") {
            for action in RateLimitedAction.allCases {
                guard let text = try rates.string(action.rawValue) else { continue }
                configuration.community.rates[action] = try Self.rate(text, key: "rates.\(action.rawValue)")
            }
            if let text = try rates.string("signups") {
                configuration.community.signupRate = try Self.rate(text, key: "rates.signups")
            }
            try rates.rejectUnknownKeys()
        }
        try reader.rejectUnknownKeys()
        try Self.checkPageWeight(configuration)
    }

    /// Refuses tweets so long that a page of the heaviest of them, which any account can post, would pass the
    /// answer cap: every reader of that page would get -32600 (`PageWeight`).
    static func checkPageWeight(_ configuration: ServerConfiguration) throws(ConfigurationError) {
        let longest = PageWeight.longestTweet(answeringAtMost: configuration.limits.maximumAnswerBytes)
        guard configuration.tweetMaximumLength <= longest else {
            throw ConfigurationError(
                key: "tweets.max_length",
                problem:
                    "\(configuration.tweetMaximumLength) characters could make a page of tweets weigh more than "
                    + "limits.max_answer_bytes (\(configuration.limits.maximumAnswerBytes)), which allows at most "
                    + "\(longest); raise max_answer_bytes or lower max_length")
        }
    }

    /// `[database]`: `path` (SQLite), or `url` with `password_file` and `pool_size` (PostgreSQL), and
    /// `token_key_file`, `messages_key_file` and `host_id` for either.
    private static func apply(database reader: inout TOMLReader, to configuration: inout ServerConfiguration)
        throws(ConfigurationError)
    {
        if let path = try reader.string("path") { configuration.databasePath = path }
        if let url = try reader.string("url") {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw ConfigurationError(key: "database.url", problem: "must be a postgres:// or postgresql:// URL")
            }
            configuration.database.url = url
        }
        if let file = try reader.string("password_file") { configuration.database.passwordFile = file }
        if let size = try reader.int("pool_size", in: 2...1000) { configuration.database.poolSize = size }
        if let file = try reader.string("token_key_file") { configuration.database.tokenKeyFile = file }
        if let file = try reader.string("messages_key_file") { configuration.database.messagesKeyFile = file }
        if let host = try reader.string("host_id") {
            guard HostIdentity.isValid(host) else {
                throw ConfigurationError(key: "database.host_id", problem: HostIdentity.rule)
            }
            configuration.database.hostID = host
        }
    }

    private static func apply(auth reader: inout TOMLReader, to auth: inout AuthConfiguration)
        throws(ConfigurationError)
    {
        if let names = try reader.stringArray("providers") { auth.providers = names }
        if let value = try reader.int("password_min_length", in: 1...128) { auth.passwordMinimumLength = value }
        if let value = try reader.int("password_ops_limit", in: 1...100) { auth.passwordOperations = value }
        if let value = try reader.int("password_mem_limit_kib", in: 8...4_194_304) {
            auth.passwordMemoryBytes = value * 1024
        }
        if let value = try reader.int("hashing_threads", in: 1...256) { auth.hashingThreads = value }
        if let value = try reader.int("hashing_queue", in: 1...100_000) { auth.hashingQueueLimit = value }
        if let value = try reader.int("session_days", in: 1...3650) { auth.sessionDays = value }
    }

    private static func apply(
        limits reader: inout TOMLReader, to limits: inout ServerConfiguration.Limits
    ) throws(ConfigurationError) {
        if let value = try reader.int("max_line_bytes", in: 64...(256 << 20)) { limits.maximumLineLength = value }
        if let value = try reader.int("max_batch", in: 1...1_000_000) { limits.maximumBatchSize = value }
        if let value = try reader.int("max_depth", in: 2...10_000) { limits.maximumDepth = value }
        if let value = try reader.int("max_answer_bytes", in: 1024...(1 << 30)) { limits.maximumAnswerBytes = value }
        if let value = try reader.int("max_connections", in: 1...1_000_000) { limits.maximumConnections = value }
        if let value = try reader.int("max_connections_per_uid", in: 1...1_000_000) {
            limits.maximumConnectionsPerUID = value
        }
        if let value = try reader.int("idle_timeout_seconds", in: 1...86_400) { limits.idleTimeout = .seconds(value) }
        if let value = try reader.int("partial_line_timeout_seconds", in: 1...3600) {
            limits.partialLineTimeout = .seconds(value)
        }
        if let value = try reader.int("shutdown_grace_seconds", in: 0...3600) {
            limits.shutdownGracePeriod = .seconds(value)
        }
    }

    /// Parses a rate such as "300/3h"; "off" lifts the limit.
    public static func rate(_ text: String, key: String) throws(ConfigurationError) -> RateLimit? {
        if text == "off" { return nil }
        guard let rate = RateLimit(parsing: text) else {
            throw ConfigurationError(
                key: key, problem: "must be count/period with the period in s, m, h or d (\"300/3h\"), or \"off\"")
        }
        return rate
    }

    /// Parses an octal permission string such as "0660".
    public static func fileMode(_ text: String, key: String = "socket_mode") throws(ConfigurationError) -> UInt16 {
        guard let mode = UInt16(text, radix: 8), mode <= 0o777 else {
            throw ConfigurationError(key: key, problem: "must be an octal mode such as \"0660\", not \"\(text)\"")
        }
        return mode
    }

    /// Parses a log level name.
    public static func logLevel(_ text: String, key: String = "log_level") throws(ConfigurationError) -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(key: key, problem: "must be one of \(names), not \"\(text)\"")
        }
        return level
    }
}
