import JSONRPC
import TwitterAPI
import TwitterCore

/// `bookmarks.*`: the caller's own bookmarks. There is no way to name another account's: every method reads and
/// writes the caller's alone.
struct BookmarkMethods: MethodGroup {
    let services: TweetServices

    func register(in router: inout Router<RequestContext>) {
        let (bookmarks, feed, stores) = (services.bookmarks, services.feed, services.readStores)
        // A tweet the caller may not see is as if absent; the store asks again in its transaction.
        router.register(API.Bookmarks.add, in: .loggedIn) { params, context in
            let reader = context.userID
            _ = try await services.access.tweet(params.id, for: reader)
            _ = try await bookmarks.bookmark(params.id, by: reader)
            return API.Bookmarks.Bookmarked(bookmarked: true)
        }
        router.register(API.Bookmarks.remove, in: .loggedIn) { params, context in
            let reader = context.userID
            _ = try await services.access.tweet(params.id, for: reader)
            _ = try await bookmarks.unbookmark(params.id, by: reader)
            return API.Bookmarks.Bookmarked(bookmarked: false)
        }
        router.register(
            API.Bookmarks.list, in: .loggedIn,
            { (params: API.Bookmarks.ListParams, context) in
                let reader = context.userID
                let request = try PageCursor.request(.tweets, limit: params.limit, cursor: params.cursor)
                let page = try await services.access.bookmarks(of: reader, page: request, in: bookmarks)
                let marked = try await feed.marked(page.tweets, for: reader, stores: stores)
                return TweetListAnswer(tweets: marked, nextCursor: page.next, json: feed.caches.tweetJSON)
            })
    }
}
