import JSONRPC
import Logging
import TwitterAPI
import TwitterCore

/// A set of methods that registers itself in the router; each feature of the daemon provides one.
public protocol MethodGroup: Sendable {
    /// Adds the group's methods to `router`.
    func register(in router: inout Router<RequestContext>)
}

/// Puts the daemon's request path together: every method group, the middleware every call goes through, and the
/// error mapping.
public enum DaemonAssembly {
    /// The request processor serving every feature's methods (the community's when `community` is given),
    /// `groups`, the system methods and `rpc.discover`.
    public static func makeProcessor(
        auth: AuthServices, tweets: TweetServices, community: CommunityServices? = nil,
        messages: MessageServices? = nil, groups: [any MethodGroup] = [],
        database: any HealthChecking,
        versions: ComponentVersions, statistics: ServerStatistics, settings: LiveSettings, logger: Logger
    ) -> RequestProcessor<RequestContext> {
        var router = Router<RequestContext>()
        SystemMethods(
            database: database, versions: versions, statistics: statistics,
            tweetMaximumLength: tweets.text.maximumLength
        ).register(in: &router)
        AuthMethods(services: auth).register(in: &router)
        TokenMethods(auth: auth).register(in: &router)
        ProfileMethods(auth: auth, messages: messages?.store).register(in: &router)
        let lookup = UserLookup(users: auth.users)
        if let messages { MessageMethods(services: messages, lookup: lookup).register(in: &router) }
        TweetMethods(services: tweets, lookup: lookup).register(in: &router)
        TimelineMethods(services: tweets, lookup: lookup).register(in: &router)
        UserMethods(services: tweets, lookup: lookup).register(in: &router)
        NotificationMethods(services: tweets).register(in: &router)
        BookmarkMethods(services: tweets).register(in: &router)
        PinMethods(services: tweets).register(in: &router)
        ListMethods(services: tweets, lookup: lookup).register(in: &router)
        SearchMethods(services: tweets, lookup: lookup).register(in: &router)
        WebMethods(services: tweets, profiles: auth.profiles, lookup: lookup).register(in: &router)
        if let community {
            AdminMethods(auth: auth, community: community).register(in: &router)
            ReportMethods(auth: auth, tweets: tweets, community: community, lookup: lookup, messages: messages)
                .register(in: &router)
            AccountMethods(auth: auth, community: community, messages: messages).register(in: &router)
        }
        for group in groups { group.register(in: &router) }
        SystemMethods.registerDiscovery(in: &router)
        let mapper = ErrorMapper(logger: logger)
        let rates = tweets.rates
        for descriptor in router.descriptors where descriptor.rate != nil {
            // A rate no `[rates]` key names would limit nothing: a programming error, caught at start-up.
            precondition(
                descriptor.access == .authenticated && RateLimitedAction(rawValue: descriptor.rate ?? "") != nil,
                "\(descriptor.name) declares the rate \(descriptor.rate ?? ""), which no logged-in [rates] key names")
        }
        for descriptor in router.descriptors where descriptor.access != .open {
            // A logged-in method an OAuth token may call declares its scope; one that declares none must say it is
            // for full logins only, so a new method is never left to the scope rule's refusal by omission.
            precondition(
                API.requiredScopes[descriptor.name] != nil || API.fullLoginOnly.contains(descriptor.name),
                "\(descriptor.name) declares no OAuth scope (API.requiredScopes) nor full logins only")
        }
        return RequestProcessor(
            router: router, limits: { settings.limits.protocolLimits },
            // In this order: what catching up learns (a revocation) decides the access rule's answer, the scope rule
            // reads the login the access rule let in, and a rate is taken only from a caller let in.
            middleware: [
                CatchUpMiddleware(logins: auth.liveLogins), AccessMiddleware(logger: logger),
                ScopeMiddleware(), WriteRateMiddleware(rates: rates), AnswerBudget(),
            ],
            mapError: { error, request, context in mapper.map(error, request: request, context: context) }
        )
    }
}
