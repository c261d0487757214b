import Foundation
import JSONRPC
import Logging
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// The request layer's middleware, each on its own: catching up, the access rule, a write's rate.
struct MiddlewareTests {
    static let open = MethodDescriptor("test.open", summary: "", result: .string(), access: .open)
    static let loggedIn = MethodDescriptor("test.mine", summary: "", result: .string())
    static let rated = MethodDescriptor("test.write", summary: "", result: .string(), rate: "likes")
    static let admin = MethodDescriptor("test.admin", summary: "", result: .string(), access: .admin)

    static func context(loggedInAs user: Int64? = nil, role: AccountRole = .user, scopes: String? = nil)
        -> RequestContext
    {
        let probe = LiveLoginsTests.Probe(id: 1)
        if let user {
            var login = LiveLoginsTests.login(user: user, token: user * 10)
            login.role = role
            login.scopes = scopes.flatMap(OAuthScopes.init(parsing:))
            probe.session.logIn(login, listedIn: LiveLogins())
        }
        return RequestContext(session: probe.session)
    }

    static func code(_ body: () throws -> Preparation?) -> Int? {
        do {
            _ = try body()
            return nil
        } catch let error as RPCError {
            return error.code
        } catch {
            return 0
        }
    }

    @Test func catchingUpWaitsOnlyForALoggedInCallOfADaemonThatIsNotCurrent() async throws {
        let logins = LiveLogins()
        let others = OtherDaemonsRelayTests.Recorder()
        logins.reckon(with: others)
        let middleware = CatchUpMiddleware(logins: logins)
        let loggedIn = Self.context(loggedInAs: 7)
        #expect(try middleware.prepare(Self.open, loggedIn) == nil, "an open method rests on no credential")
        #expect(try middleware.prepare(Self.loggedIn, Self.context()) == nil, "nor does a connection not logged in")
        others.current.withLock { $0 = true }
        #expect(try middleware.prepare(Self.loggedIn, loggedIn) == nil, "a current daemon has applied it all")
        others.current.withLock { $0 = false }
        let preparation = try #require(try middleware.prepare(Self.loggedIn, loggedIn))
        #expect(try await preparation { Array("served".utf8) } == Array("served".utf8))
        #expect(others.catchUps.withLock { $0 } == 1)
    }

    @Test func theScopeRuleBindsOnlyAnOAuthTokensLoginToItsScopes() {
        let middleware = ScopeMiddleware()
        let post = MethodDescriptor("tweets.post", summary: "", result: .string())
        let home = MethodDescriptor("timeline.home", summary: "", result: .string())
        let follow = MethodDescriptor("users.follow", summary: "", result: .string())
        let reader = Self.context(loggedInAs: 7, scopes: "read")
        #expect(Self.code { try middleware.prepare(home, reader) } == nil)
        #expect(Self.code { try middleware.prepare(post, reader) } == -32003, "a read-only token writing")
        #expect(Self.code { try middleware.prepare(Self.loggedIn, reader) } == -32003, "a method declaring no scope")
        #expect(Self.code { try middleware.prepare(Self.open, reader) } == nil, "an open method needs none")
        let follower = Self.context(loggedInAs: 7, scopes: "follow")
        #expect(Self.code { try middleware.prepare(follow, follower) } == nil, "follow still grants follows")
        #expect(Self.code { try middleware.prepare(post, follower) } == -32003)
        let session = Self.context(loggedInAs: 7)
        for descriptor in [post, home, follow, Self.loggedIn] {
            #expect(Self.code { try middleware.prepare(descriptor, session) } == nil, "a session has every scope")
        }
    }

    @Test func everyDeclaredScopeIsMastodonsAndNamesAMethodTheDaemonServes() async throws {
        let routed = Set(try TestAssembly.processor().router.descriptors.map(\.name))
        for (method, scope) in API.requiredScopes {
            #expect(routed.contains(method), "\(method) is no method")
            #expect(OAuthScopes.known.contains(scope), "\(method): \(scope) is no Mastodon scope")
        }
        #expect(API.fullLoginOnly.isSubset(of: routed))
        #expect(API.fullLoginOnly.isDisjoint(with: API.requiredScopes.keys))
    }

    @Test func theAccessRuleLetsInByTheMethodsDeclaredAccess() {
        let middleware = AccessMiddleware(logger: Logger(label: "test"))
        let anonymous = Self.context()
        let user = Self.context(loggedInAs: 7)
        let admin = Self.context(loggedInAs: 1, role: .admin)
        #expect(Self.code { try middleware.prepare(Self.open, anonymous) } == nil)
        #expect(Self.code { try middleware.prepare(Self.loggedIn, anonymous) } == -32001)
        #expect(Self.code { try middleware.prepare(Self.loggedIn, user) } == nil)
        #expect(Self.code { try middleware.prepare(Self.admin, user) } == -32003)
        #expect(Self.code { try middleware.prepare(Self.admin, anonymous) } == -32001)
        #expect(Self.code { try middleware.prepare(Self.admin, admin) } == nil)
    }

    @Test func aWritesRateIsTakenFromItsCallersBucket() {
        let rates = WriteRateLimiter(limits: [.likes: RateLimit(count: 1, period: 60)], store: nil, clock: { Date() })
        let middleware = WriteRateMiddleware(rates: rates)
        let (alice, bob) = (Self.context(loggedInAs: 1), Self.context(loggedInAs: 2))
        #expect(Self.code { try middleware.prepare(Self.loggedIn, alice) } == nil, "a method without a rate")
        #expect(Self.code { try middleware.prepare(Self.loggedIn, alice) } == nil)
        #expect(Self.code { try middleware.prepare(Self.rated, alice) } == nil)
        #expect(Self.code { try middleware.prepare(Self.rated, alice) } == -32006, "the bucket is empty")
        #expect(Self.code { try middleware.prepare(Self.rated, bob) } == nil, "another account's bucket")
    }

    /// What each step says it leaves alone is what it does: for every method the daemon serves, a step that does not
    /// `prepare` it lets every caller through untouched, and one that does not check answers passes any answer. The
    /// processor leaves such steps out of the method's calls (the fast path); asking them anyway (the slow path)
    /// would come to the same.
    @Test func aStepLeftOutOfAMethodsCallsWouldHaveDoneNothingForThem() async throws {
        let logins = LiveLogins()
        let others = OtherDaemonsRelayTests.Recorder()
        logins.reckon(with: others)
        others.current.withLock { $0 = false }
        let rates = WriteRateLimiter(
            limits: Dictionary(
                uniqueKeysWithValues: RateLimitedAction.allCases.map { ($0, RateLimit(count: 1, period: 60)) }),
            store: nil, clock: { Date() })
        let steps: [any RequestMiddleware<RequestContext>] = [
            CatchUpMiddleware(logins: logins), AccessMiddleware(logger: Logger(label: "test")), ScopeMiddleware(),
            WriteRateMiddleware(rates: rates),
        ]
        let callers = [
            Self.context(), Self.context(loggedInAs: 7), Self.context(loggedInAs: 1, role: .admin),
            Self.context(loggedInAs: 7, scopes: "read"),
        ]
        let descriptors = try TestAssembly.processor().router.descriptors
        var leftOut = 0
        for descriptor in descriptors {
            for step in steps where !step.prepares(descriptor) {
                leftOut += 1
                for caller in callers {
                    // Neither a refusal nor a preparation: nothing at all.
                    switch Result(catching: { try step.prepare(descriptor, caller) }) {
                    case .success(.none): break
                    case .success(.some): Issue.record("\(step) prepared \(descriptor.name)")
                    case .failure(let error): Issue.record("\(step) refused \(descriptor.name): \(error)")
                    }
                }
            }
        }
        #expect(leftOut > descriptors.count, "the open methods leave out three steps each, unrated ones the rate")
        for step in steps {
            #expect(!step.checksAnswers)
            #expect(throws: Never.self) { try step.check(answer: Array(repeating: 0, count: 1 << 20), limits: .init()) }
        }
        #expect(!AnswerBudget<RequestContext>().prepares(Self.open) && AnswerBudget<RequestContext>().checksAnswers)
    }
}
