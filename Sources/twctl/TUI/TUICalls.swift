import Foundation
import TwitterAPI
import TwitterClient
import TwitterCore
import TwitterTUI

/// The model's effects as typed calls through TwitterClient, each answered with the event it leads to.
struct TUICalls {
    let connection: RPCConnection
    /// The state when the effect was asked for (the search query, the account).
    let state: AppState

    /// How many items a page shows.
    static let pageSize = 50

    func answer(_ effect: Effect) async throws -> Event? {
        let page = API.Timelines.PageParams(limit: Self.pageSize)
        switch effect {
        case .load(.home):
            // Until one follows someone, home is only one's own tweets: show everyone's instead.
            let me = try await connection.call(API.Auth.whoami).user.username
            let followsNobody = try await connection.call(API.Users.get, .init(username: me)).followingCount == 0
            let tweets = try await connection.call(followsNobody ? API.Timelines.public : API.Timelines.home, page)
            return .timeline(.home, tweets.tweets, homeIsPublic: followsNobody)
        case .load(.everyone):
            return .timeline(
                .everyone, try await connection.call(API.Timelines.public, page).tweets, homeIsPublic: false)
        case .load(.notifications):
            let answer = try await connection.call(API.Notifications.list, .init(limit: Self.pageSize))
            return .notifications(answer.notifications, unread: answer.unread)
        case .load(.search):
            let query = state.searchQuery
            let results = try await connection.call(API.Search.tweets, .init(query: query, limit: Self.pageSize))
            return .searchResults(query: query, results.tweets)
        case .load(.messages):
            let me = state.account?.lowercased()
            let page = try await connection.call(API.Messages.conversations, .init(limit: Self.pageSize))
            return .conversations(
                page.conversations.map { conversation in
                    ConversationLine(
                        id: conversation.id,
                        people: conversation.participants.map(\.username).filter { $0.lowercased() != me },
                        lastSender: conversation.lastMessage?.sender?.username,
                        lastText: conversation.lastMessage?.text,
                        unread: conversation.unreadCount, updatedAt: conversation.updatedAt)
                })
        case .loadThread(let id):
            let thread = try await connection.call(API.Tweets.thread, .init(id: id))
            return .thread(focus: id, Self.tree(of: thread))
        case .loadProfile(let username):
            let user = try await connection.call(API.Users.get, .init(username: username))
            let tweets = try await connection.call(
                API.Timelines.user, .init(username: username, limit: Self.pageSize))
            return .profile(user, tweets.tweets)
        case .post(let text, let parent):
            return .posted(try await connection.call(API.Tweets.post, .init(text: text, inReplyToId: parent)))
        case .quote(let text, let id):
            return .posted(try await connection.call(API.Tweets.post, .init(text: text, quoteOf: id)))
        case .like(let id, true):
            let liked = try await connection.call(API.Tweets.like, .init(id: id))
            return .liked(id, liked: liked.liked, count: liked.likesCount)
        case .like(let id, false):
            let liked = try await connection.call(API.Tweets.unlike, .init(id: id))
            return .liked(id, liked: liked.liked, count: liked.likesCount)
        case .repost(let id, true):
            _ = try await connection.call(API.Tweets.repost, .init(id: id))
            return .reposted(id, reposted: true)
        case .repost(let id, false):
            let answer = try await connection.call(API.Tweets.unrepost, .init(id: id))
            return .reposted(id, reposted: answer.reposted)
        case .follow(let username, true):
            return .followed(
                username, following: try await connection.call(API.Users.follow, .init(username: username)).following)
        case .follow(let username, false):
            let answer = try await connection.call(API.Users.unfollow, .init(username: username))
            return .followed(username, following: answer.following)
        case .bookmark(let id, let on):
            let answer = try await connection.call(on ? API.Bookmarks.add : API.Bookmarks.remove, .init(id: id))
            return .bookmarked(id, answer.bookmarked)
        case .markRead(let upTo):
            _ = try await connection.call(API.Notifications.markRead, .init(upToId: upTo))
            return nil
        }
    }

    /// A thread's tweets as a tree: ancestors from the root, the tweet marked, replies nested under their parents.
    static func tree(of thread: API.Tweets.Thread) -> [Item] {
        var depths: [Int64: Int] = [:]
        var items: [Item] = []
        func add(_ item: API.Tweets.ThreadItem, focus: Bool) {
            let depth = item.inReplyToId.flatMap { depths[$0] }.map { $0 + 1 } ?? 0
            depths[item.id] = depth
            switch item {
            case .tweet(let tweet): items.append(.tweet(tweet, depth: depth, focus: focus))
            case .deleted(let id, _): items.append(.deleted(id: id, depth: depth))
            }
        }
        for ancestor in thread.ancestors { add(ancestor, focus: false) }
        add(.tweet(thread.tweet), focus: true)
        for descendant in thread.descendants { add(descendant, focus: false) }
        return items
    }
}
