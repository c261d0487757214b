import Foundation
import Testing
import TwitterCore
import TwitterTUI

/// The Notifications tab's badge counts each unread notification once, however it reached the client.
@Suite struct NotificationBadgeTests {
    static let mention = ActivityNotification(
        id: 7, type: .mention, createdAt: Fixture.now, from: .init(username: "bob"),
        tweet: Fixture.tweet(4, by: "bob", "hi @alice"))

    @Test func aNotificationOnThePageThatTheStreamDeliversAgainIsCountedOnce() {
        var state = Fixture.home([])
        _ = state.apply(.notifications([Self.mention], unread: 1))
        _ = state.apply(.newNotification(Self.mention))
        #expect(state.unreadNotifications == 1)
    }

    @Test func aNewOneIsCounted() {
        var state = Fixture.home([])
        _ = state.apply(.notifications([Self.mention], unread: 1))
        let like = ActivityNotification(
            id: 8, type: .like, createdAt: Fixture.now, from: .init(username: "bob"), tweet: Fixture.tweet(5))
        _ = state.apply(.newNotification(like))
        #expect(state.unreadNotifications == 2)
    }
}
