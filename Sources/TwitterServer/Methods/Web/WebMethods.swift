import JSONRPC
import TwitterAPI
import TwitterCore

/// `web.*`: the public web pages' reads, open to anyone. The reader is nobody (`WebMethods.nobody`: no account,
/// no mutes, no blocks, no likes), so a page holds what a logged-out reader may see, and the accounts that keep
/// themselves off the web are hidden from it as a block hides an account: by `TweetVisibility`, the one policy.
/// Their set is the read model's (`FeedReadModel.accountsOffWeb`): while it is empty, a web page reads the same
/// shared pages as any reader who hides nobody.
struct WebMethods: MethodGroup {
    let services: TweetServices
    let profiles: any ProfileStoring
    let lookup: UserLookup

    /// The reader of every web page: no account has this id.
    static let nobody: Int64 = 0

    func register(in router: inout Router<RequestContext>) {
        let (services, profiles, lookup) = (services, profiles, lookup)
        let (feed, stores, nobody) = (services.feed, services.readStores, Self.nobody)
        router.register(
            API.Web.user, in: .open,
            { (params: API.Users.UsernameParams, _) in
                let offWeb = try await feed.accountsOffWeb(store: profiles)
                guard let account = try await services.account(named: params.username, viewerID: nobody),
                    !offWeb.contains(account.id)
                else { throw TwitterError.notFound("User \(params.username)") }
                var overview = account.overview
                let visibility = TweetVisibility(HiddenAccounts(blocking: offWeb))
                if let pinned = account.pinnedTweetID, let stored = try await services.store.tweet(id: pinned),
                    visibility.allowsAccess(to: stored)
                {
                    // A quote of an account off the web shows as unavailable, as everywhere on it.
                    overview.pinnedTweet = try await feed.marked(
                        [stored], for: nobody, alsoHiding: offWeb, stores: stores)[0]
                }
                return overview
            })
        router.register(
            API.Web.timeline, in: .open,
            { (params: API.Web.TimelineParams, _) in
                let offWeb = try await feed.accountsOffWeb(store: profiles)
                let timeline: Timeline
                if let tag = params.tag {
                    timeline = .tag(try SearchMethods.tagKey(tag))
                } else if let username = params.username {
                    timeline = .author(try await Self.shownAccount(username, offWeb: offWeb, lookup: lookup))
                } else {
                    timeline = .everyone
                }
                let query = TweetQuery(
                    timeline, sinceID: nil, maxID: params.maxId, limit: API.PageSize.tweets.limit(params.limit))
                return try await feed.page(query, reader: nobody, alsoHiding: offWeb, stores: stores)
            })
        router.register(
            API.Web.thread, in: .open,
            { (params: API.Tweets.IDParams, _) in
                let offWeb = try await feed.accountsOffWeb(store: profiles)
                let visibility = TweetVisibility(HiddenAccounts(blocking: offWeb))
                guard
                    let stored = try await services.store.thread(
                        of: params.id, descendantLimit: Conversation.descendantLimit),
                    let rows = visibility.thread(stored)
                else { throw TwitterError.notFound("Tweet \(params.id)") }
                let marks = try await feed.marks.marks(of: nobody, store: services.likes)
                let quoting = try await feed.quoting(
                    rows, for: nobody, alsoHiding: offWeb, marks: marks, stores: stores)
                return ThreadAnswer(Conversation(quoting), marks: marks)
            })
    }

    /// The id of `username`'s account when it is on the web; `.notFound` for one off it, as for a stranger.
    private static func shownAccount(_ username: String, offWeb: Set<Int64>, lookup: UserLookup) async throws -> Int64 {
        let account = try await lookup.id(of: username)
        guard !offWeb.contains(account) else { throw TwitterError.notFound("User \(username)") }
        return account
    }
}
