import Foundation
import Testing
import TwitterCore

/// Follows, mutes and blocks with the notifications they make and withdraw, without a tweet: what the graph's
/// stores do on their own.
struct GraphStoreTests {
    /// Each notification as "type:actor", in the order given.
    static func kinds(_ notifications: [ActivityNotification]) -> [String] {
        notifications.map { "\($0.type.rawValue):\($0.from.username)" }
    }

    @Test(arguments: StoreBackend.all) func followNotificationsAreFilteredMarkedReadAndWithdrawn(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let (bob, carol, dave) = (
            try await fixture.user("bob"), try await fixture.user("carol"), try await fixture.user("dave")
        )
        for follower in [bob, carol, dave] { #expect(try await fixture.follows.follow(alice.id, by: follower.id)) }
        guard case .account(.notified(let first, alice.id)) = fixture.commits.events[1] else {
            Issue.record("a follow reports its notification after itself: \(fixture.commits.events)")
            return
        }
        #expect(fixture.commits.events[0] == .relation(.followed(followerID: bob.id, followeeID: alice.id)))
        #expect(first.type == .follow && first.from.username == "bob" && first.tweet == nil)

        let notifications = fixture.notifications
        let all = try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: [])
        #expect(Self.kinds(all) == ["follow:dave", "follow:carol", "follow:bob"])
        #expect(all.last?.id == first.id && all.allSatisfy { !$0.read })
        #expect(try await notifications.notifications(of: bob.id, NotificationQuery(), hiding: []).isEmpty)
        let page = NotificationQuery(sinceID: all[2].id, maxID: all[0].id, limit: 5)
        #expect(Self.kinds(try await notifications.notifications(of: alice.id, page, hiding: [])) == ["follow:carol"])
        #expect(
            try await notifications.notifications(of: alice.id, NotificationQuery(limit: 1), hiding: []).map(\.id)
                == [all[0].id])
        #expect(
            try await notifications.notifications(of: alice.id, NotificationQuery(types: [.like]), hiding: []).isEmpty)
        #expect(
            Self.kinds(try await notifications.notifications(of: alice.id, after: all[2].id, limit: 10, hiding: []))
                == ["follow:carol", "follow:dave"], "a catch-up reads oldest first")
        #expect(
            Self.kinds(try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: [carol.id]))
                == ["follow:dave", "follow:bob"])

        #expect(try await notifications.unreadCount(of: alice.id, hiding: []) == 3)
        #expect(try await notifications.unreadCount(of: alice.id, hiding: [bob.id, dave.id]) == 1)
        #expect(try await notifications.markRead(of: alice.id, upTo: all[1].id, hiding: []) == 1)
        #expect(try await notifications.markRead(of: alice.id, upTo: all[2].id, hiding: []) == 1, "never back")
        #expect(try await notifications.markRead(of: alice.id, upTo: all[1].id, hiding: [dave.id]) == 0)
        let read = try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: [])
        #expect(read.map(\.read) == [false, true, true])
        #expect(try await notifications.markRead(of: alice.id, upTo: Int64.max, hiding: []) == 0)
        #expect(try await notifications.markRead(of: bob.id, upTo: Int64.max, hiding: []) == 0, "none yet")
        _ = try await fixture.follows.follow(bob.id, by: alice.id)
        #expect(
            try await notifications.unreadCount(of: bob.id, hiding: []) == 1,
            "marking read with none there leaves the next one unread")

        #expect(try await fixture.follows.unfollow(alice.id, by: dave.id))
        #expect(fixture.commits.events.last == .relation(.unfollowed(followerID: dave.id, followeeID: alice.id)))
        #expect(
            Self.kinds(try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: []))
                == ["follow:carol", "follow:bob"], "an unfollow withdraws its notification")
        #expect(try await notifications.unreadCount(of: alice.id, hiding: []) == 0)
    }

    @Test(arguments: StoreBackend.all) func aNotificationIsDismissedOnlyByItsRecipientAndClearedWithTheRest(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        for follower in [bob, carol] { _ = try await fixture.follows.follow(alice.id, by: follower.id) }
        _ = try await fixture.follows.follow(bob.id, by: alice.id)
        let notifications = fixture.notifications
        let alices = try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: [])
        let bobs = try await notifications.notifications(of: bob.id, NotificationQuery(), hiding: [])
        #expect(Self.kinds(alices) == ["follow:carol", "follow:bob"] && bobs.count == 1)
        #expect(try await !notifications.dismiss(alices[0].id, of: bob.id), "not bob's to dismiss")
        #expect(try await notifications.dismiss(alices[0].id, of: alice.id))
        #expect(try await !notifications.dismiss(alices[0].id, of: alice.id), "gone")
        #expect(
            Self.kinds(try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: []))
                == ["follow:bob"])
        #expect(try await notifications.unreadCount(of: alice.id, hiding: []) == 1)
        try await notifications.clear(of: alice.id)
        #expect(try await notifications.notifications(of: alice.id, NotificationQuery(), hiding: []).isEmpty)
        #expect(try await notifications.unreadCount(of: alice.id, hiding: []) == 0)
        #expect(
            try await notifications.notifications(of: bob.id, NotificationQuery(), hiding: []).map(\.id)
                == bobs.map(\.id), "bob's stay")
        _ = try await fixture.follows.follow(alice.id, by: (try await fixture.user("dave")).id)
        #expect(try await notifications.unreadCount(of: alice.id, hiding: []) == 1, "a later one is unread")
    }

    @Test(arguments: StoreBackend.all) func aBlockEndsFollowsBothWaysWithdrawsTheirNotificationsAndHides(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        _ = try await fixture.follows.follow(bob.id, by: alice.id)
        _ = try await fixture.follows.follow(alice.id, by: bob.id)
        _ = try await fixture.follows.follow(alice.id, by: carol.id)
        let reported = fixture.commits.events.count
        #expect(try await fixture.relations.block(bob.id, by: alice.id))
        #expect(
            Array(fixture.commits.events.dropFirst(reported)) == [
                .relation(.unfollowed(followerID: alice.id, followeeID: bob.id)),
                .relation(.unfollowed(followerID: bob.id, followeeID: alice.id)),
                .relation(.blocked(blockerID: alice.id, blockedID: bob.id)),
            ])
        #expect(try await !fixture.relations.block(bob.id, by: alice.id))
        #expect(fixture.commits.events.count == reported + 3, "blocking again reports nothing")
        #expect(
            Self.kinds(try await fixture.notifications.notifications(of: alice.id, NotificationQuery(), hiding: []))
                == ["follow:carol"])
        #expect(try await fixture.notifications.notifications(of: bob.id, NotificationQuery(), hiding: []).isEmpty)
        for (actor, other) in [(alice, bob), (bob, alice)] {
            do {
                _ = try await fixture.follows.follow(other.id, by: actor.id)
                Issue.record("a follow across a block was accepted")
            } catch let error as TwitterError {
                #expect(error.kind == .forbidden)
                #expect(
                    error.message
                        == (actor == alice ? "You block this account; unblock it first" : "This account blocks you"))
            }
        }
        #expect(try await fixture.relations.hiddenAccounts(of: alice.id) == HiddenAccounts(blocking: [bob.id]))
        #expect(try await fixture.relations.hiddenAccounts(of: bob.id) == HiddenAccounts(blockedBy: [alice.id]))
        let overview = try #require(try await fixture.follows.overview(of: "BOB", viewerID: alice.id))
        #expect(overview.blockedByMe && !overview.mutedByMe && !overview.followedByMe && !overview.followsMe)
        #expect(overview.followersCount == 0 && overview.followingCount == 0 && overview.tweetsCount == 0)
        #expect(try await fixture.relations.unblock(bob.id, by: alice.id))
        #expect(try await !fixture.relations.unblock(bob.id, by: alice.id))
        #expect(fixture.commits.events.last == .relation(.unblocked(blockerID: alice.id, blockedID: bob.id)))
        #expect(try await fixture.relations.hiddenAccounts(of: bob.id).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func relationshipPagesWalkNewestFirstAndLeaveOutTheHidden(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        var others: [User] = []
        for index in 0..<5 { others.append(try await fixture.user("user\(index)")) }
        for other in others { #expect(try await fixture.relations.mute(other.id, by: alice.id)) }
        #expect(try await !fixture.relations.mute(others[0].id, by: alice.id), "muting again changes nothing")
        #expect(fixture.commits.events.last == .relation(.muted(muterID: alice.id, mutedID: others[4].id)))
        var names: [String] = []
        var before: Int64?
        repeat {
            let page = try await fixture.relations.muted(
                by: alice.id, page: PageRequest(limit: 2, before: before, hiding: [others[2].id]))
            #expect(page.users.count <= 2)
            names += page.users.map(\.username)
            before = page.next
        } while before != nil
        #expect(names == ["user4", "user3", "user1", "user0"])
        let exact = try await fixture.relations.muted(by: alice.id, page: PageRequest(limit: 5))
        #expect(exact.users.count == 5 && exact.next == nil, "a page that ends the list has no next")
        #expect(try await fixture.relations.hiddenAccounts(of: alice.id).muted == Set(others.map(\.id)))
        #expect(try await fixture.relations.unmute(others[0].id, by: alice.id))
        #expect(fixture.commits.events.last == .relation(.unmuted(muterID: alice.id, mutedID: others[0].id)))
        #expect(try await fixture.relations.blocked(by: alice.id, page: PageRequest()).users.isEmpty)
        let overview = try #require(try await fixture.follows.overview(of: "user1", viewerID: alice.id))
        #expect(overview.mutedByMe && !overview.blockedByMe)
    }
}
