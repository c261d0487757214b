import JSONRPC
import Logging

/// Everything the daemon can be told: where to listen and store, how loudly to log, and every limit.
///
/// Defaults come first, a configuration file overrides them, and command-line flags override the file.
public struct ServerConfiguration: Sendable, Equatable {
    /// The Unix socket path.
    public var socketPath: String
    /// The socket file's permission bits.
    public var socketMode: UInt16 = 0o660
    /// The SQLite database file; with a PostgreSQL `database.url`, only its folder is used (the state folder).
    public var databasePath: String
    /// A PostgreSQL database instead of the SQLite file, and what it takes.
    public var database = DatabaseSettings()
    /// The least severe level that is logged.
    public var logLevel: Logger.Level = .info
    /// The limits on connections and requests.
    public var limits = Limits()
    /// The login settings.
    public var auth = AuthConfiguration()
    /// The longest tweet, in grapheme clusters.
    public var tweetMaximumLength = 140
    /// The admins and the write rate limits.
    public var community = CommunityConfiguration()
    /// Where the Mastodon API is served over HTTP (`[http]`, `--http`).
    public var http = HTTPSettings()
    /// The NIO event loops (threads) that serve the connections (`event_loops`); read at start only.
    public var eventLoops = ServerConfiguration.defaultEventLoops

    /// Creates a configuration with the default limits.
    public init(socketPath: String, databasePath: String) {
        self.socketPath = socketPath
        self.databasePath = databasePath
    }
}

extension ServerConfiguration {
    /// What a PostgreSQL database takes: `[database]` in the configuration file, or `--database URL`.
    public struct DatabaseSettings: Sendable, Equatable {
        /// The PostgreSQL URL (`postgres://…`); nil keeps the SQLite file.
        public var url: String?
        /// A file holding the role's password: never on the command line, in the URL or in a log.
        public var passwordFile: String?
        /// The most connections to PostgreSQL; nil for the store's default.
        public var poolSize: Int?
        /// The key tokens are hashed with; nil for `token.key` beside the SQLite file. Daemons sharing one
        /// database must share this file, or each refuses the others' tokens.
        public var tokenKeyFile: String?
        /// The key message texts are sealed with; nil for `messages.key` beside the SQLite file. Daemons sharing
        /// one database must share this file, or none opens the others' messages.
        public var messagesKeyFile: String?
        /// The identity of this daemon's machine, which names its uids in the database (peer links, the login
        /// throttle's and the signup buckets' uid keys); nil for /etc/machine-id (`HostIdentity`). Daemons on one
        /// machine share it; daemons on different machines must not.
        public var hostID: String?

        /// SQLite, with every default.
        public init() {}
    }

    /// The limits that keep one client from taking the daemon down for everyone.
    public struct Limits: Sendable, Equatable {
        /// The longest line, in bytes; longer ones are answered -32600 and the connection closes.
        public var maximumLineLength = LineFraming.defaultMaximumLineLength
        /// The most requests in one batch.
        public var maximumBatchSize = 1000
        /// The deepest JSON nesting in a line.
        public var maximumDepth = 64
        /// The most bytes of answers one line gets; past it a call is answered -32600 instead (in a batch, the
        /// requests after the budget is spent are not run and each gets -32600).
        public var maximumAnswerBytes = ProtocolLimits.defaultMaximumAnswerBytes
        /// The most connections served at once; one more is answered -32008 and closed.
        public var maximumConnections = 4096
        /// The most connections one local user (uid) may have open at once; one more is answered -32008 and
        /// closed. Root is never refused by it, so it cannot lock the administrator out.
        public var maximumConnectionsPerUID = 256
        /// How long a connection may send and receive nothing before it is closed.
        public var idleTimeout: Duration = .seconds(300)
        /// How long an unfinished line may wait for its newline.
        public var partialLineTimeout: Duration = .seconds(30)
        /// How long SIGTERM waits for in-flight requests before closing what is left.
        public var shutdownGracePeriod: Duration = .seconds(10)

        /// Creates the default limits.
        public init() {}

        /// The part of the limits the JSON-RPC layer enforces.
        public var protocolLimits: ProtocolLimits {
            ProtocolLimits(
                maximumBatchSize: maximumBatchSize, maximumDepth: maximumDepth, maximumAnswerBytes: maximumAnswerBytes)
        }
    }
}
