import Foundation
import Testing
import TwitterCore
import TwitterRules

/// Suspensions and reports: what moves, who is told.
struct CommunityRuleTests {
    @Test func aSuspensionMovesTheCountersOnceEachWay() {
        let out = StandingRule.plan(.suspend, of: 7, isSuspended: false)
        #expect(out?.contributionSign == -1 && out?.events == [.account(.standingChanged(userID: 7))])
        let back = StandingRule.plan(.unsuspend, of: 7, isSuspended: true)
        #expect(back?.contributionSign == 1 && back?.events == [.account(.standingChanged(userID: 7))])
        #expect(StandingRule.plan(.suspend, of: 7, isSuspended: true) == nil, "suspended twice: counted once")
        #expect(StandingRule.plan(.unsuspend, of: 7, isSuspended: false) == nil, "nothing to lift")
    }

    @Test func aReportReachesEveryAdminOnceButTheReporterInIDOrder() {
        #expect(ReportRule.recipients(admins: [9, 3, 5, 3], reporter: 5) == [3, 9])
        #expect(ReportRule.recipients(admins: [5], reporter: 5).isEmpty, "an admin reporting is not told")
        let now = Date(timeIntervalSince1970: 1_000)
        let events = ReportRule.events(
            recipients: [3, 9], ids: [3: 40, 9: 41], reporter: Tweet.Author(id: 5, username: "eve"), tweet: nil,
            reportID: 12, at: now)
        #expect(
            events == [
                .account(
                    .notified(
                        ActivityNotification(
                            id: 40, type: .adminReport, createdAt: now, from: .init(id: 5, username: "eve"), tweet: nil,
                            reportID: 12), recipientID: 3)),
                .account(
                    .notified(
                        ActivityNotification(
                            id: 41, type: .adminReport, createdAt: now, from: .init(id: 5, username: "eve"), tweet: nil,
                            reportID: 12), recipientID: 9)),
            ])
        #expect(
            ReportRule.events(
                recipients: [3, 9], ids: [9: 41], reporter: Tweet.Author(id: 5, username: "eve"), tweet: nil,
                reportID: 12, at: now
            ).count == 1, "only the notifications written are reported")
    }

    @Test func aPageReadOnePastItsLimitSaysWhetherThereIsMore() {
        let more = IDPage(overfetched: [9, 8, 7], limit: 2, id: { Int64($0) })
        #expect(more.items == [9, 8] && more.next == 8)
        let last = IDPage(overfetched: [9, 8], limit: 2, id: { Int64($0) })
        #expect(last.items == [9, 8] && last.next == nil)
        #expect(IDPage(overfetched: [Int](), limit: 2, id: { Int64($0) }).next == nil)
    }
}
