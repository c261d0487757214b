import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// Bookmarks and pinned tweets over the real socket, on the store the run chooses (`TWITTERD_TEST_STORE`): each
/// account's bookmarks are its own, and a pin is one's own tweet, refused to everyone else.
@Suite(.serialized) struct BookmarkPinTests {
    @Test func aBookmarkIsTheReadersAloneAndAPinTheAuthorsAlone() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let tweet = try await SocialTests.as_("bob", on: daemon, signUp: true) { bob in
            let tweet = try await bob.call(API.Tweets.post, .init(text: "worth keeping"))
            #expect(try await bob.call(API.Profiles.pin, .init(id: tweet.id)).pinnedTweetId == tweet.id)
            return tweet
        }
        try await SocialTests.as_("alice", on: daemon, signUp: true) { alice in
            #expect(try await alice.call(API.Bookmarks.add, .init(id: tweet.id)).bookmarked)
            #expect(try await alice.call(API.Tweets.get, .init(id: tweet.id)).bookmarkedByMe)
            let page = try await alice.call(API.Bookmarks.list, .init())
            #expect(page.tweets.map(\.id) == [tweet.id] && page.nextCursor == nil)
            let bob = try await alice.call(API.Users.get, .init(username: "bob"))
            #expect(bob.pinnedTweet?.id == tweet.id && bob.pinnedTweet?.bookmarkedByMe == true)
            let refused = try await SocialTests.code { try await alice.call(API.Profiles.pin, .init(id: tweet.id)) }
            #expect(refused == -32003, "someone else's tweet")
        }
        try await SocialTests.as_("bob", on: daemon) { bob in
            #expect(try await bob.call(API.Bookmarks.list, .init()).tweets.isEmpty, "alice's bookmarks are hers")
            #expect(try await !bob.call(API.Tweets.get, .init(id: tweet.id)).bookmarkedByMe)
            #expect(try await bob.call(API.Notifications.list, .init()).notifications.isEmpty, "nobody is told")
            _ = try await bob.call(API.Users.block, .init(username: "alice"))
        }
        try await SocialTests.as_("alice", on: daemon) { alice in
            #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.isEmpty, "hidden by the block")
            let refused = try await SocialTests.code { try await alice.call(API.Bookmarks.add, .init(id: tweet.id)) }
            #expect(refused == -32004)
            #expect(try await alice.call(API.Users.get, .init(username: "bob")).pinnedTweet == nil)
        }
    }
}
