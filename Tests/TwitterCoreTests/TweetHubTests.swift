import Foundation
import Testing
import TwitterCore

struct TweetHubTests {
    static let moment = Date(timeIntervalSince1970: 1_800_000_000)

    static func tweet(_ id: Int64, author: Int64 = 1) -> Tweet {
        Tweet(id: id, author: .init(id: author, username: "u\(author)"), text: "t\(id)", createdAt: moment)
    }

    @Test func deliversInPublishOrderAndFiltersByAuthor() async {
        let hub = TweetHub()
        let all = hub.subscribe(authorID: nil)
        let onlyTwo = hub.subscribe(authorID: 2)
        hub.publish([.posted(Self.tweet(1)), .posted(Self.tweet(2, author: 2))])
        hub.publish([.deleted(id: 1, authorID: 1)])
        #expect(await all.next() == .event(.posted(Self.tweet(1))))
        #expect(await all.next() == .event(.posted(Self.tweet(2, author: 2))))
        #expect(await all.next() == .event(.deleted(id: 1, authorID: 1)))
        #expect(await onlyTwo.next() == .event(.posted(Self.tweet(2, author: 2))))
        all.cancel()
        #expect(await all.next() == nil)
        #expect(hub.subscriptionCount == 1)
    }

    @Test func aSubscriberTooFarBehindGetsOneLagAndIsDropped() async {
        let hub = TweetHub()
        let slow = hub.subscribe(authorID: nil, capacity: 10)
        hub.publish((1...11).map { .posted(Self.tweet($0)) })
        #expect(await slow.next() == .lagged)
        #expect(await slow.next() == nil)
        #expect(hub.subscriptionCount == 0)
        hub.publish([.posted(Self.tweet(12))])
        #expect(await slow.next() == nil)
    }

    @Test func aWaitingSubscriberIsWokenByPublish() async {
        let hub = TweetHub()
        let subscription = hub.subscribe(authorID: nil)
        async let delivery = subscription.next()
        hub.publish([.posted(Self.tweet(7))])
        #expect(await delivery == .event(.posted(Self.tweet(7))))
    }
}
