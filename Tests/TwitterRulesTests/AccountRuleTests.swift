import Foundation
import Testing
import TwitterCore
import TwitterRules

/// Deleting an account and using a reset code, on facts made up here.
struct AccountRuleTests {
    static let until = Date(timeIntervalSince1970: 2_000_000_000)

    @Test(arguments: [false, true])
    func aDeletionTakesTheContributionsOutOnlyWhenNoSuspensionDidAndReservesTheName(_ suspended: Bool) throws {
        let facts = AccountDeletionRule.Facts(
            usernameKey: "alice", emailKey: "alice@example.com", contributionsWithdrawn: suspended)
        let plan = try AccountDeletionRule.plan(deleting: 7, facts: facts, reservingNameUntil: Self.until)
        #expect(plan.withdrawContributions == !suspended)
        #expect(plan.throttleKey == LoginThrottle.Key.account("alice@example.com").storageName)
        #expect(plan.reservedName == "alice" && plan.reservedUntil == Self.until)
        #expect(plan.events == [.account(.standingChanged(userID: 7))])
    }

    @Test func aMissingAccountIsNotFound() {
        let error = #expect(throws: TwitterError.self) {
            try AccountDeletionRule.plan(deleting: 7, facts: nil, reservingNameUntil: Self.until)
        }
        #expect(error?.kind == .notFound)
    }

    static let now = Date(timeIntervalSince1970: 1_000_000)

    @Test(arguments: [
        // matches, expires in (s), deleted, accepted
        (true, 60.0, true, true),
        (false, 60.0, false, false),
        (true, 0.0, true, false),
        (false, -1.0, true, false),
    ])
    func aResetCodeWorksOnceBeforeItExpires(_ matches: Bool, _ expiresIn: Double, _ deleted: Bool, _ accepted: Bool) {
        let outcome = ResetCodeRule.outcome(
            matches: matches, expiresAt: Self.now.addingTimeInterval(expiresIn), now: Self.now)
        #expect(outcome.deleteCode == deleted, "a used or expired code goes; a wrong guess leaves the owner's")
        #expect(outcome.accepted == accepted)
    }
}
