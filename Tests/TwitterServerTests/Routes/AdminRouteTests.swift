import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `admin.*`: for admins only, each action audited. Every test also asks as an ordinary account, which the
/// dispatch refuses with -32003 before the handler runs.
struct AdminRouteTests: RouteTesting {
    static let routes = [
        API.Admin.usersList.name, API.Admin.suspend.name, API.Admin.unsuspend.name, API.Admin.resetPassword.name,
        API.Admin.deleteTweet.name, API.Admin.reportsList.name, API.Admin.resolve.name, API.Admin.auditList.name,
        API.Admin.grantRole.name, API.Admin.revokeRole.name,
    ]

    @Test func usersListFindsAccountsByNameAndStatusForAdminsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("alfred")
        _ = try await daemon.signUp("bob")
        let found = try await admin.call(API.Admin.usersList, .init(query: "al"))
        #expect(found.users.map(\.username) == ["alfred", "alice"], "newest first")
        #expect(found.users.first?.email == "alfred@example.com" && found.users.first?.status == .active)
        _ = try await admin.call(API.Admin.suspend, .init(username: "bob", reason: "spam"))
        #expect(try await admin.call(API.Admin.usersList, .init(status: .suspended)).users.map(\.username) == ["bob"])
        let page = try await admin.call(API.Admin.usersList, .init(limit: 2))
        #expect(page.users.count == 2 && page.nextCursor != nil)
        #expect(try await alice.refusal(API.Admin.usersList, .init()).code == -32003)
        #expect(try await daemon.connect().refusal(API.Admin.usersList, .init()).code == -32001)
    }

    @Test func suspendEndsTheAccountsLoginsAndHidesItsTweets() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await bob.call(API.Tweets.post, .init(text: "spam"))
        #expect(try await alice.refusal(API.Admin.suspend, .init(username: "bob", reason: "spam")).code == -32003)
        #expect(try await bob.call(API.Auth.whoami).user.username == "bob", "alice's attempt changed nothing")

        let suspended = try await admin.call(API.Admin.suspend, .init(username: "BOB", reason: " spam "))
        #expect(suspended.status == .suspended && suspended.suspendedReason == "spam")
        #expect(try await bob.refusal(API.Auth.whoami).code == -32001, "its connections end")
        let login = try await daemon.connect().refusal(API.Auth.login, AuthRouteTests.passwordLogin("bob@example.com"))
        #expect(login.code == -32003 && login.data["reason"] == "spam")
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.isEmpty, "its content vanishes")
        #expect(try await admin.refusal(API.Admin.suspend, .init(username: "bob", reason: "  ")).code == -32602)
        #expect(try await admin.refusal(API.Admin.suspend, .init(username: "root", reason: "me")).code == -32602)
        #expect(try await admin.refusal(API.Admin.suspend, .init(username: "nobody", reason: "x")).code == -32004)
    }

    @Test func unsuspendBringsTheAccountAndItsContentBack() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await bob.call(API.Tweets.post, .init(text: "back"))
        _ = try await admin.call(API.Admin.suspend, .init(username: "bob", reason: "spam"))
        #expect(try await alice.refusal(API.Admin.unsuspend, .init(username: "bob")).code == -32003)
        let lifted = try await admin.call(API.Admin.unsuspend, .init(username: "bob"))
        #expect(lifted.status == .active && lifted.suspendedReason == nil)
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.map(\.text) == ["back"])
        _ = try await daemon.connect().call(API.Auth.login, AuthRouteTests.passwordLogin("bob@example.com"))
        #expect(try await admin.refusal(API.Admin.unsuspend, .init(username: "nobody")).code == -32004)
    }

    @Test func resetPasswordGivesAnHourLongCodeToAdminsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        #expect(try await alice.refusal(API.Admin.resetPassword, .init(username: "bob")).code == -32003)
        let reset = try await admin.call(API.Admin.resetPassword, .init(username: "bob"))
        #expect(!reset.code.isEmpty)
        let lifetime = reset.expiresAt.timeIntervalSinceNow
        #expect(lifetime > 3500 && lifetime <= 3600)
        #expect(try await admin.refusal(API.Admin.resetPassword, .init(username: "nobody")).code == -32004)
    }

    @Test func deleteTweetRemovesAnyonesTweetForAdminsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await bob.call(API.Tweets.post, .init(text: "abuse"))
        let refused = try await alice.refusal(API.Admin.deleteTweet, .init(id: tweet.id, reason: "abuse"))
        #expect(refused.code == -32003)
        #expect(try await alice.call(API.Tweets.get, .init(id: tweet.id)).text == "abuse")
        #expect(try await admin.refusal(API.Admin.deleteTweet, .init(id: tweet.id, reason: "")).code == -32602)
        #expect(try await admin.call(API.Admin.deleteTweet, .init(id: tweet.id, reason: "abuse")).deleted)
        #expect(try await alice.refusal(API.Tweets.get, .init(id: tweet.id)).code == -32004)
        #expect(try await admin.refusal(API.Admin.deleteTweet, .init(id: tweet.id, reason: "again")).code == -32004)
    }

    @Test func reportsListShowsReportsByStatusToAdminsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await bob.call(API.Tweets.post, .init(text: "rude"))
        let first = try await alice.call(API.Reports.create, .init(tweetId: tweet.id, reason: "rude")).id
        let second = try await alice.call(API.Reports.create, .init(username: "bob", reason: "again")).id
        let open = try await admin.call(API.Admin.reportsList, .init(status: .open))
        #expect(open.reports.map(\.id) == [second, first])
        #expect(open.reports.last?.tweetID == tweet.id && open.reports.last?.reporter == "alice")
        #expect(open.reports.last?.username == "bob")
        #expect(try await admin.call(API.Admin.reportsList, .init(status: .resolved)).reports.isEmpty)
        #expect(try await alice.refusal(API.Admin.reportsList, .init()).code == -32003)
    }

    @Test func resolveClosesAReportWithANoteForAdminsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        let report = try await alice.call(API.Reports.create, .init(username: "bob", reason: "spam")).id
        #expect(try await alice.refusal(API.Admin.resolve, .init(id: report, note: "done")).code == -32003)
        let resolved = try await admin.call(API.Admin.resolve, .init(id: report, note: "warned"))
        #expect(resolved.status == .resolved && resolved.note == "warned")
        #expect(try await admin.call(API.Admin.reportsList, .init(status: .open)).reports.isEmpty)
        #expect(try await admin.refusal(API.Admin.resolve, .init(id: report + 100)).code == -32004)
    }

    @Test func auditListRecordsEachAdminActionForAdminsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        _ = try await admin.call(API.Admin.suspend, .init(username: "bob", reason: "spam"))
        _ = try await admin.call(API.Admin.unsuspend, .init(username: "bob"))
        _ = try await admin.call(API.Admin.usersList, .init())
        let entries = try await admin.call(API.Admin.auditList, .init()).entries
        #expect(entries.map(\.action) == [API.Admin.unsuspend.name, API.Admin.suspend.name], "reads are not audited")
        #expect(entries.allSatisfy { $0.actor == "root" && $0.target == "bob" })
        #expect(entries.last?.reason == "spam")
        #expect(try await alice.refusal(API.Admin.auditList, .init()).code == -32003)
    }

    @Test func grantRoleMakesAnAdminWhoseLoginsEndAndComeBackAsAdmin() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        #expect(try await alice.refusal(API.Admin.grantRole, .init(username: "alice")).code == -32003)
        #expect(try await alice.refusal(API.Admin.grantRole, .init(username: "bob")).code == -32003)

        #expect(
            try await admin.call(API.Admin.grantRole, .init(username: "alice"))
                == .init(username: "alice", role: .admin, changed: true))
        #expect(try await admin.call(API.Admin.grantRole, .init(username: "alice")).changed == false)
        #expect(try await alice.refusal(API.Auth.whoami).code == -32001, "its live connections end")
        let again = daemon.connect(uid: 1001)
        _ = try await again.call(API.Auth.login, AuthRouteTests.passwordLogin("alice@example.com"))
        #expect(try await again.call(API.Auth.whoami).role == .admin)
        _ = try await again.call(API.Admin.usersList, .init())
        #expect(try await bob.call(API.Auth.whoami).role == .user)
        #expect(try await admin.refusal(API.Admin.grantRole, .init(username: "nobody")).code == -32004)
    }

    @Test func revokeRoleTakesTheStoredRoleButNotYourOwn() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        _ = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await admin.call(API.Admin.grantRole, .init(username: "alice"))
        let alice = daemon.connect()
        _ = try await alice.call(API.Auth.login, AuthRouteTests.passwordLogin("alice@example.com"))
        #expect(try await bob.refusal(API.Admin.revokeRole, .init(username: "alice")).code == -32003)
        #expect(try await alice.refusal(API.Admin.revokeRole, .init(username: "alice")).code == -32602)

        #expect(try await admin.call(API.Admin.revokeRole, .init(username: "alice")).changed)
        #expect(try await alice.refusal(API.Auth.whoami).code == -32001)
        let again = daemon.connect()
        _ = try await again.call(API.Auth.login, AuthRouteTests.passwordLogin("alice@example.com"))
        #expect(try await again.refusal(API.Admin.usersList, .init()).code == -32003)
        #expect(try await admin.refusal(API.Admin.revokeRole, .init(username: "nobody")).code == -32004)
    }
}
