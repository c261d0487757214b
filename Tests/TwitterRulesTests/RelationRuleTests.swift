import Testing
import TwitterCore
import TwitterRules

/// Follows and blocks: refused across a block, the followee told, a block ending follows both ways in order.
struct RelationRuleTests {
    @Test func aFollowAcrossABlockIsRefusedAndOtherwiseTellsTheFollowee() {
        #expect(RelationRule.followRefusal(followee: 2, follower: 1, blocker: 2)?.message == "This account blocks you")
        #expect(RelationRule.followRefusal(followee: 2, follower: 1, blocker: nil) == nil)
        #expect(
            RelationRule.followNotification(followee: 2, follower: 1)
                == PlannedNotification(recipientID: 2, kind: .follow))
        #expect(
            RelationRule.followEvents(follower: 1, followee: 2, notification: nil) == [
                .followed(followerID: 1, followeeID: 2)
            ])
    }

    @Test func aBlockEndsTheFollowsBothWaysBeforeItIsReported() {
        let ended = RelationRule.followsEndedByBlock(blocker: 1, blocked: 2)
        #expect(ended.map(\.followerID) == [1, 2] && ended.map(\.followeeID) == [2, 1])
        let unfollowed: [TweetEvent] = [.unfollowed(followerID: 2, followeeID: 1)]
        #expect(
            RelationRule.blockEvents(blocker: 1, blocked: 2, unfollowed: unfollowed)
                == [.unfollowed(followerID: 2, followeeID: 1), .blocked(blockerID: 1, blockedID: 2)])
    }
}
