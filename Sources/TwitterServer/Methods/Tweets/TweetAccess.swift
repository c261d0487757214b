import TwitterCore

/// The one read path of every method that names a tweet or lists tweets: it reads what the caller may see
/// through `TweetVisibility`, so no handler decides visibility for itself. A tweet hidden from the reader is
/// `.notFound`, exactly as a missing one.
struct TweetAccess: Sendable {
    let tweets: any TweetStoring
    let feed: FeedReadModel
    let stores: ReadStores

    /// The policy for `reader`, from the read model's hidden accounts.
    func visibility(for reader: Int64) async throws -> TweetVisibility {
        TweetVisibility(try await feed.hiddenAccounts(of: reader, stores: stores))
    }

    /// Tweet `id` as stored, when `reader` may see it and act on it (for a repost, its original too).
    func tweet(_ id: Int64, for reader: Int64) async throws -> Tweet {
        let visibility = try await visibility(for: reader)
        return try visibility.accessible(try await tweets.tweet(id: id), id: id)
    }

    /// Checks that `reader` may ask to delete tweet `id`: its own tweets always (a repost of a tweet it may no
    /// longer see too); someone else's only when it may see them, so the refusal the store gives (-32003) tells
    /// nothing of a hidden tweet.
    func requireDeletable(_ id: Int64, by reader: Int64) async throws {
        let stored = try await tweets.tweet(id: id)
        guard stored?.author.id != reader else { return }
        _ = try await visibility(for: reader).accessible(stored, id: id)
    }

    /// The thread around tweet `id` (its original's, for a repost) as `reader` may see it.
    func thread(of id: Int64, for reader: Int64, descendantLimit: Int) async throws -> ThreadRows {
        let visibility = try await visibility(for: reader)
        guard let stored = try await tweets.thread(of: id, descendantLimit: descendantLimit),
            let rows = visibility.thread(stored)
        else { throw TwitterError.notFound("Tweet \(id)") }
        return rows
    }
}

extension TweetAccess {
    /// A page of `reader`'s bookmarks as the reader may see them now: the tweets of accounts it hides (a mute, a
    /// block either way, since the bookmark) leave the list, as they leave every list.
    func bookmarks(of reader: Int64, page: PageRequest, in store: any BookmarkStoring) async throws -> BookmarkPage {
        try await listed(page, \BookmarkPage.tweets, for: reader) { try await store.bookmarks(of: reader, page: $0) }
    }

    /// A page of the tweets `reader` likes, as bookmarks are read: the liked tweets it may still see.
    func liked(by reader: Int64, page: PageRequest, in store: any LikeStoring) async throws -> BookmarkPage {
        try await listed(page, \BookmarkPage.tweets, for: reader) { try await store.liked(by: reader, page: $0) }
    }

    /// A page of tweets read by `read` as `reader` may see it: the store is asked to leave out the accounts the
    /// reader hides (`hiding`), and what it read is held to the one rule of what lists show (`listed`).
    private func listed<Page>(
        _ page: PageRequest, _ tweets: WritableKeyPath<Page, [Tweet]>, for reader: Int64,
        _ read: (PageRequest) async throws -> Page
    ) async throws -> Page {
        let visibility = try await visibility(for: reader)
        var request = page
        request.hiding = visibility.hiding
        var found = try await read(request)
        found[keyPath: tweets] = visibility.listed(found[keyPath: tweets])
        return found
    }
}

extension TweetAccess {
    /// The request of a page of people for `reader` (followers, likers, list members): the accounts it hides (a
    /// mute, a block either way) leave people lists, as they leave every list.
    func peopleRequest(limit: Int?, cursor: String?, for reader: Int64) async throws -> PageRequest {
        var request = try PageCursor.request(.people, limit: limit, cursor: cursor)
        request.hiding = try await visibility(for: reader).hiding
        return request
    }
}

extension TweetAccess {
    /// A page of the quotes of tweet `id` as `reader` may see them: the quotes by accounts it hides (a mute, a
    /// block either way) leave the list, as they leave every list.
    func quotes(of id: Int64, for reader: Int64, page: PageRequest) async throws -> IDPage<Tweet> {
        try await listed(page, \IDPage<Tweet>.items, for: reader) { try await tweets.quotes(of: id, page: $0) }
    }
}

extension TweetAccess {
    /// The tweet `authorID` pins, as `reader` may see it: nil when none, and when the reader may not see it (a
    /// block either way), as if there were none.
    func pinnedTweet(of authorID: Int64, for reader: Int64, in pins: any PinStoring) async throws -> Tweet? {
        try await pinnedTweet(try await pins.pinnedTweetID(of: authorID), for: reader)
    }

    /// The pinned tweet `id` (as the account's row has it), as `reader` may see it, as `pinnedTweet(of:)` says.
    func pinnedTweet(_ id: Int64?, for reader: Int64) async throws -> Tweet? {
        guard let id, let stored = try await tweets.tweet(id: id),
            try await visibility(for: reader).allowsAccess(to: stored)
        else { return nil }
        return stored
    }
}

extension TweetServices {
    /// The read path of the methods that name or list tweets.
    var access: TweetAccess { TweetAccess(tweets: store, feed: feed, stores: readStores) }

    /// The account `username` as `viewerID` sees it, with its id, its pin as stored and the read model's counts
    /// (counting an account's followers reads one row a follower); nil when there is none. One read of the store.
    func account(named username: String, viewerID: Int64) async throws -> AccountOverview? {
        guard var account = try await follows.account(named: username, viewerID: viewerID, counted: false) else {
            return nil
        }
        account.overview.counts = try await feed.counts(of: account.id, store: follows)
        return account
    }

    /// The visibility policy for `reader`.
    func visibility(for reader: Int64) async throws -> TweetVisibility {
        try await access.visibility(for: reader)
    }
}
