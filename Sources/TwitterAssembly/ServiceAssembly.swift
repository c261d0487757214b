import Foundation
import JSONRPC
import Logging
import PasswordLogin
import PeerLogin
import Sodium
import TokenLogin
import TwitterCore
import TwitterServer
import TwitterStore

/// The one place that names the store and every login plugin and puts the daemon's services together: the
/// daemon's main serves what it assembles, and tests that need no socket run the same assembly in memory.
public struct ServiceAssembly: Sendable {
    /// Accounts, logins, sessions and tokens.
    public let auth: AuthServices
    /// Tweets, follows and likes, the read model and the text rules.
    public let tweets: TweetServices
    /// Moderation, the account lifecycle and the audit log.
    public let community: CommunityServices
    /// The database the stores share.
    public let database: AppDatabase

    /// The versions of what the daemon runs on, as only the assembly can name them.
    public static let versions = ComponentVersions(
        libsodium: Sodium.shared.version, sqlite: AppDatabase.sqliteVersion)

    /// Assembles the services on `database` as `configuration` says, hashing tokens with `tokenKey`.
    public init(
        database: AppDatabase, configuration: ServerConfiguration, tokenKey: [UInt8], logger: Logger
    ) throws {
        self.database = database
        let feed = FeedReadModel(hub: TweetHub())
        let moderation = ModerationStore(database: database, observer: feed)
        auth = try Self.makeAuthServices(
            database: database, settings: configuration.auth, tokenKey: tokenKey, logger: logger,
            roles: AdminRoles(configuration.community), moderation: moderation)
        community = CommunityServices(
            moderation: moderation, accounts: AccountStore(database: database, observer: feed),
            sealer: TokenSealer(key: tokenKey), logger: logger)
        tweets = TweetServices(
            store: TweetStore(database: database, observer: feed),
            follows: FollowStore(database: database, observer: feed),
            likes: LikeStore(database: database, observer: feed),
            relations: RelationStore(database: database, observer: feed),
            notifications: NotificationStore(database: database), search: SearchStore(database: database), feed: feed,
            text: TweetText(maximumLength: configuration.tweetMaximumLength),
            rates: WriteRateLimiter(
                limits: configuration.community.rates, store: RateBucketStore(database: database)))
    }

    /// The request path over these services.
    public func makeProcessor(
        statistics: ServerStatistics, settings: LiveSettings, logger: Logger
    ) -> RequestProcessor<RequestContext> {
        DaemonAssembly.makeProcessor(
            auth: auth, tweets: tweets, community: community, database: database, versions: Self.versions,
            statistics: statistics,
            settings: settings, logger: logger)
    }

    /// Registers every login provider plugin, then keeps the ones the configuration enables.
    private static func makeAuthServices(
        database: AppDatabase, settings: AuthConfiguration, tokenKey: [UInt8], logger: Logger, roles: AdminRoles,
        moderation: any ModerationStoring
    ) throws -> AuthServices {
        let users = UserStore(database: database)
        let tokens = SessionService(
            store: TokenStore(database: database), sealer: TokenSealer(key: tokenKey), sessionDays: settings.sessionDays
        )
        let cost = settings.passwordHashCost
        let hasher = try PasswordHasher(
            cost: cost, minimumLength: settings.passwordMinimumLength,
            threads: settings.hashingThreads, queueLimit: settings.hashingQueueLimit
        )
        let peerLinks = PeerLinkStore(database: database)

        var registry = LoginProviderRegistry()
        registry.register(PasswordLoginProvider(users: users, hasher: hasher))
        registry.register(TokenLoginProvider(service: tokens, users: users))
        registry.register(PeerLoginProvider(links: peerLinks))
        let selection: LoginProviderSelection
        do throws(TwitterError) {
            selection = try LoginProviderSelection(registered: registry, enabled: settings.providers)
        } catch {
            throw ConfigurationError(key: "auth.providers", problem: error.message)
        }
        logger.info(
            "login providers",
            metadata: ["enabled": "\(selection.enabled.names.joined(separator: ","))", "argon2id": "\(cost)"]
        )
        return AuthServices(
            providers: selection, users: users, profiles: ProfileStore(database: database), sessions: tokens,
            tokens: tokens, passwords: hasher, peerLinks: peerLinks,
            throttle: LoginThrottle(store: ThrottleStore(database: database)), roles: roles, moderation: moderation
        )
    }
}
