import JSONRPC
import Logging
import PasswordLogin
import PeerLogin
import Sodium
import TokenLogin
import TwitterCore
import TwitterStore

@testable import TwitterServer

/// The daemon's request path over an in-memory database and the real plugins, for tests that need no socket.
enum TestAssembly {
    static func processor() throws -> RequestProcessor<RequestContext> {
        let database = try AppDatabase.inMemory()
        let users = UserStore(database: database)
        let tokens = TokenService(store: TokenStore(database: database), key: Sodium.shared.randomBytes(count: 32))
        let hasher = try PasswordHasher(cost: .minimum, threads: 1, queueLimit: 8)
        let links = PeerLinkStore(database: database)
        var registry = LoginProviderRegistry()
        registry.register(PasswordLoginProvider(users: users, hasher: hasher))
        registry.register(TokenLoginProvider(service: tokens, users: users))
        registry.register(PeerLoginProvider(links: links))
        let auth = AuthServices(
            providers: try LoginProviderSelection(registered: registry, enabled: nil), users: users,
            profiles: ProfileStore(database: database), sessions: tokens, tokens: tokens, passwords: hasher,
            peerLinks: links,
            throttle: LoginThrottle(store: ThrottleStore(database: database))
        )
        let hub = TweetHub()
        let tweets = TweetServices(store: TweetStore(database: database, hub: hub), hub: hub, text: TweetText())
        return DaemonAssembly.makeProcessor(
            auth: auth, tweets: tweets, database: database,
            versions: ComponentVersions(libsodium: Sodium.shared.version, sqlite: AppDatabase.sqliteVersion),
            statistics: ServerStatistics(),
            settings: LiveSettings(limits: .init()),
            logger: Logger(label: "test")
        )
    }
}
