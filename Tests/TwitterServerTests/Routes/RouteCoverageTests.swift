import Testing

@testable import TwitterServer

/// A suite of in-process route tests: it names the methods it tests, so that a route without one is noticed.
protocol RouteTesting {
    /// The methods this suite tests, each at least once.
    static var routes: [String] { get }
}

/// Every method the router registers has an in-process test.
struct RouteCoverageTests {
    static let suites: [any RouteTesting.Type] = [
        SystemRouteTests.self, AuthRouteTests.self, PeerLinkRouteTests.self, TokenRouteTests.self,
        ProfileRouteTests.self, TweetRouteTests.self, ConversationRouteTests.self, TimelineRouteTests.self,
        UserRouteTests.self, RelationRouteTests.self, NotificationRouteTests.self, SearchRouteTests.self,
        AdminRouteTests.self, ReportRouteTests.self, AccountRouteTests.self, BookmarkRouteTests.self,
        PinRouteTests.self, MessageRouteTests.self, QuoteRouteTests.self, ListRouteTests.self, OAuthRouteTests.self,
        ReactionListRouteTests.self, WebRouteTests.self,
    ]

    @Test func everyRoutedMethodHasAnInProcessTest() async throws {
        let routed = Set(try await InProcessDaemon().processor.router.descriptors.map(\.name))
        let tested = Self.suites.reduce(into: Set<String>()) { $0.formUnion($1.routes) }
        #expect(routed.subtracting(tested).sorted() == [], "routes without an in-process test")
        #expect(tested.subtracting(routed).sorted() == [], "tests of methods the router does not have")
    }
}
