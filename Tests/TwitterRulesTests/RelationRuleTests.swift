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
                .relation(.followed(followerID: 1, followeeID: 2))
            ])
    }

    @Test func aBlockEndsTheFollowsBothWaysBeforeItIsReported() {
        let ended = RelationRule.followsEndedByBlock(blocker: 1, blocked: 2)
        #expect(ended.map(\.followerID) == [1, 2] && ended.map(\.followeeID) == [2, 1])
        let unfollowed: [CommitEvent] = [.relation(.unfollowed(followerID: 2, followeeID: 1))]
        #expect(
            RelationRule.blockEvents(blocker: 1, blocked: 2, unfollowed: unfollowed)
                == [
                    .relation(.unfollowed(followerID: 2, followeeID: 1)),
                    .relation(.blocked(blockerID: 1, blockedID: 2)),
                ])
    }
}

/// Mutes, unmutes and unblocks: one event when something changed, none when nothing did.
struct PlainRelationChangeTests {
    @Test func aChangeIsReportedOnceAndANoOpNever() {
        let muted = RelationRule.outcome(.mute, by: 1, of: 2, changed: true)
        #expect(muted.0 && muted.1 == [.relation(.muted(muterID: 1, mutedID: 2))])
        let unmuted = RelationRule.outcome(.unmute, by: 1, of: 2, changed: true)
        #expect(unmuted.0 && unmuted.1 == [.relation(.unmuted(muterID: 1, mutedID: 2))])
        let unblocked = RelationRule.outcome(.unblock, by: 1, of: 2, changed: true)
        #expect(unblocked.0 && unblocked.1 == [.relation(.unblocked(blockerID: 1, blockedID: 2))])
        for change in [RelationRule.PlainChange.mute, .unmute, .unblock] {
            let nothing = RelationRule.outcome(change, by: 1, of: 2, changed: false)
            #expect(!nothing.0 && nothing.1.isEmpty)
        }
    }
}
