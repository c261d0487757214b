import Foundation
import JSONRPC
import Logging
import PasswordLogin
import PeerLogin
import Sodium
import TokenLogin
import TwitterCore
import TwitterRuntime
import TwitterSQLite
import TwitterServer

/// The one place that names the database driver (`OpenedDatabase`) and every login plugin and puts the daemon's
/// services together: the daemon's main serves what it assembles, and tests that need no socket run the same
/// assembly in memory.
public struct ServiceAssembly: Sendable {
    /// Accounts, logins, sessions and tokens.
    public let auth: AuthServices
    /// Tweets, follows and likes, the read model and the text rules.
    public let tweets: TweetServices
    /// Moderation, the account lifecycle and the audit log.
    public let community: CommunityServices
    /// Direct messages, sealed with the messages key.
    public let messages: MessageServices
    /// Whether the store answers.
    public let health: any HealthChecking

    /// The versions of what the daemon runs on with SQLite, as only the assembly can name them.
    public static let versions = ComponentVersions(
        libsodium: Sodium.shared.version, sqlite: AppDatabase.sqliteVersion)

    /// Assembles the services on the stores `makeStores` builds (publishing commits to the publisher it is
    /// given, to which the read model subscribes), as `configuration` says, hashing tokens with `tokenKey` and sealing messages with `messageKey` (a
    /// key of this run alone when nil, for a database no other run reads).
    public init(
        configuration: ServerConfiguration, tokenKey: [UInt8], messageKey: [UInt8]? = nil, logger: Logger,
        stores makeStores: (any CommitObserving) -> StoreSet
    ) throws {
        // The stores publish their commits; the read model subscribes, through the relay.
        let commits = CommitPublisher()
        let feed = FeedReadModel(hub: CommitHub(), commits: commits)
        // The live logins exist before the stores, which report other daemons' revocations to them.
        let liveLogins = LiveLogins()
        let relay = OtherDaemonsRelay(next: feed, liveLogins: liveLogins)
        commits.subscribe(relay)
        let stores = makeStores(commits)
        liveLogins.reckon(with: stores.otherDaemons)
        feed.share(with: stores.otherDaemons)
        health = stores.health
        if !configuration.community.adminUsers.isEmpty {
            // A name is no credential: whoever renames away from it, or never registered it, hands it to the next
            // one to sign up. Roles are stored with accounts now; the old key grants nothing.
            logger.warning(
                """
                [admin] users is retired and grants nothing: a role belongs to an account, not to a name that can \
                change hands. Grant it with `twctl admin grant NAME` as an admin (root through `twctl login --peer` \
                is one), then remove the key
                """,
                metadata: ["names": "\(configuration.community.adminUsers.joined(separator: ","))"])
        }
        auth = try Self.makeAuthServices(
            stores: stores, settings: configuration.auth, host: configuration.database.hostID ?? "",
            tokenKey: tokenKey, logger: logger,
            roles: AdminRoles(configuration.community), liveLogins: liveLogins,
            signups: SignupRateLimiter(limit: configuration.community.signupRate, store: stores.rateBuckets))
        community = CommunityServices(
            moderation: stores.moderation, accounts: stores.accounts, sealer: TokenSealer(key: tokenKey),
            logger: logger)
        tweets = TweetServices(
            store: stores.tweets, follows: stores.follows, likes: stores.likes, bookmarks: stores.bookmarks,
            pins: stores.pins, lists: stores.lists, relations: stores.relations,
            notifications: stores.notifications, search: stores.search, feed: feed,
            text: TweetText(maximumLength: configuration.tweetMaximumLength),
            rates: WriteRateLimiter(limits: configuration.community.rates, store: stores.rateBuckets))
        relay.charge(to: tweets.rates)
        messages = MessageServices(
            store: stores.messages,
            sealer: SodiumMessageSealer(key: messageKey ?? Sodium.shared.randomBytes(count: Sodium.aeadKeyLength)),
            feed: feed)
    }

    /// Assembles the services on `database`'s stores, for the uids of `host`.
    public init(
        database: OpenedDatabase, host: String = "", configuration: ServerConfiguration, tokenKey: [UInt8],
        messageKey: [UInt8]? = nil, logger: Logger
    ) throws {
        try self.init(configuration: configuration, tokenKey: tokenKey, messageKey: messageKey, logger: logger) {
            database.stores(observer: $0, host: host)
        }
    }

    /// The request path over these services.
    public func makeProcessor(
        statistics: ServerStatistics, settings: LiveSettings, versions: ComponentVersions = Self.versions,
        logger: Logger
    ) -> RequestProcessor<RequestContext> {
        DaemonAssembly.makeProcessor(
            auth: auth, tweets: tweets, community: community, messages: messages, database: health, versions: versions,
            statistics: statistics,
            settings: settings, logger: logger)
    }

    /// The OAuth apps a local user may register: Mastodon clients register one per login at most, so a
    /// hundred an hour serves any use and bounds a process filling the table; root is never limited.
    static let appRegistrationRate = RateLimit(count: 100, period: 3600)

    /// Registers every login provider plugin, then keeps the ones the configuration enables.
    private static func makeAuthServices(
        stores: StoreSet, settings: AuthConfiguration, host: String, tokenKey: [UInt8], logger: Logger,
        roles: AdminRoles,
        liveLogins: LiveLogins, signups: SignupRateLimiter
    ) throws -> AuthServices {
        let tokens = SessionService(
            store: stores.tokens, sealer: TokenSealer(key: tokenKey), sessionDays: settings.sessionDays)
        let cost = settings.passwordHashCost
        let hasher = try PasswordHasher(
            cost: cost, minimumLength: settings.passwordMinimumLength,
            threads: settings.hashingThreads, queueLimit: settings.hashingQueueLimit
        )

        var registry = LoginProviderRegistry()
        registry.register(PasswordLoginProvider(users: stores.users, hasher: hasher))
        registry.register(TokenLoginProvider(service: tokens, users: stores.users))
        registry.register(PeerLoginProvider(links: stores.peerLinks))
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
            providers: selection, users: stores.users, profiles: stores.profiles, sessions: tokens,
            tokens: tokens, passwords: hasher, peerLinks: stores.peerLinks,
            throttle: LoginThrottle(store: stores.throttle, host: host), liveLogins: liveLogins, roles: roles,
            moderation: stores.moderation, signups: signups,
            oauth: OAuthService(store: stores.oauth, tokens: stores.tokens, sealer: TokenSealer(key: tokenKey)),
            appRegistrations: SignupRateLimiter(
                limit: Self.appRegistrationRate, store: nil, counted: "app registrations")
        )
    }
}
