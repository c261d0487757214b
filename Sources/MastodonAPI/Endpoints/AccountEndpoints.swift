import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/accounts`: the caller's own account, others' accounts, their statuses and people, and the relations
/// the caller makes (follow, block, mute), each answered with the Relationship after it.
enum AccountEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/accounts/verify_credentials", verifyCredentials),
        MastodonEndpoint("PATCH", "/api/v1/accounts/update_credentials", updateCredentials),
        MastodonEndpoint("GET", "/api/v1/accounts/relationships", relationships),
        MastodonEndpoint("GET", "/api/v1/accounts/lookup") { request, caller in
            guard let acct = request.params.string("acct"), !acct.isEmpty else {
                throw MastodonError.unprocessable("acct is required")
            }
            let account = try await caller.account(username(ofAcct: acct))
            return .json { MastodonAccount(account).write(origin: request.origin, into: &$0) }
        },
        MastodonEndpoint("GET", "/api/v1/accounts/search", search),
        MastodonEndpoint("GET", "/api/v1/accounts/:id") { request, caller in
            let account = try await caller.account(try request.accountID())
            return .json { MastodonAccount(account).write(origin: request.origin, into: &$0) }
        },
        MastodonEndpoint("GET", "/api/v1/accounts/:id/statuses", statuses),
        peopleOf("followers", API.Users.followers),
        peopleOf("following", API.Users.following),
        relating("follow", API.Users.follow),
        relating("unfollow", API.Users.unfollow),
        relating("block", API.Users.block),
        relating("unblock", API.Users.unblock),
        relating("mute", API.Users.mute),
        relating("unmute", API.Users.unmute),
        ownPeople("/api/v1/mutes", API.Users.muted),
        ownPeople("/api/v1/blocks", API.Users.blocked),
        MastodonEndpoint("GET", "/api/v1/favourites") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Tweets.liked, .init(limit: paging.limit(.tweets), cursor: paging.maxID))
            return TimelineEndpoints.statuses(
                page.tweets, request: request, path: "/api/v1/favourites", next: page.nextCursor, previous: nil)
        },
        MastodonEndpoint("GET", "/api/v1/bookmarks") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Bookmarks.list, .init(limit: paging.limit(.tweets), cursor: paging.maxID))
            return TimelineEndpoints.statuses(
                page.tweets, request: request, path: "/api/v1/bookmarks", next: page.nextCursor, previous: nil)
        },
    ]

    /// `@alice`, `alice@host` and `alice` all name alice: every account here is local.
    static func username(ofAcct acct: String) -> String {
        var name = Substring(acct)
        if name.hasPrefix("@") { name = name.dropFirst() }
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        return String(name)
    }

    /// A page of people as Accounts, with a `Link` whose next `max_id` is our cursor.
    static func people(_ page: API.Users.UserPage, request: MastodonRequest, path: String) -> MastodonResponse {
        let link = MastodonLink.header(for: request, path: path, next: page.nextCursor, previous: nil)
        return .json(headers: link.map { [$0] } ?? []) { bytes in
            writeArray(page.users, into: &bytes) { MastodonAccount($0).write(origin: request.origin, into: &$1) }
        }
    }

    @Sendable static func verifyCredentials(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let me = try await caller.me()
        var account = MastodonAccount(try await caller.account(me.username))
        account.isOwnView = true
        return .json { account.write(origin: request.origin, into: &$0) }
    }

    /// `PATCH /api/v1/accounts/update_credentials`: `display_name` is our first and last name (split at the first
    /// space), `note` our bio; the rest Mastodon has (avatars, fields, locked...) does not exist here.
    @Sendable static func updateCredentials(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        var update = API.Profiles.UpdateParams()
        if let displayName = request.params.string("display_name") {
            let parts = displayName.split(separator: " ", maxSplits: 1).map(String.init)
            update.firstName = parts.first ?? ""
            if parts.count > 1 { update.lastName = parts[1] }
        }
        if let note = request.params.string("note") { update.bio = note }
        if update.firstName != nil || update.lastName != nil || update.bio != nil {
            _ = try await caller.call(API.Profiles.update, update)
        }
        return try await verifyCredentials(request, caller)
    }

    /// `GET /api/v1/accounts/relationships?id[]=...`: one Relationship per account the caller may see.
    @Sendable static func relationships(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        var accounts: [UserOverview] = []
        for id in request.params.strings("id").prefix(40) {
            if let account = try await caller.accountIfFound(id) { accounts.append(account) }
        }
        return .json { bytes in writeArray(accounts, into: &bytes) { MastodonRelationship.write($0, into: &$1) } }
    }

    /// `GET /api/v1/accounts/search?q=`: accounts whose names start with `q`, each with its counts.
    @Sendable static func search(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let accounts = try await searchAccounts(request.params.string("q") ?? "", limit: request.params, caller)
        return .json { bytes in
            writeArray(accounts, into: &bytes) { MastodonAccount($0).write(origin: request.origin, into: &$1) }
        }
    }

    /// The accounts matching `query`, as `users.get` shows them: clients read `created_at` and the counts of a
    /// search's accounts (toot's `whois` shows them), which a search's summaries do not carry.
    static func searchAccounts(_ query: String, limit params: MastodonParams, _ caller: any MastodonCaller)
        async throws -> [UserOverview]
    {
        let query = username(ofAcct: query.trimmingPrefix(while: { $0 == " " }).description)
        guard !query.isEmpty else { return [] }
        let limit = try params.int("limit").map { min(max($0, 1), 40) } ?? 20
        let found = try await caller.call(API.Search.users, .init(query: query, limit: limit))
        var accounts: [UserOverview] = []
        for user in found.users {
            if let account = try await caller.accountIfFound(user.username) { accounts.append(account) }
        }
        return accounts
    }

    /// `GET /api/v1/accounts/:id/statuses`: the account's tweets and reposts; `pinned=true` is its pinned tweet
    /// alone; `exclude_replies` and `exclude_reblogs` leave those out of the page the layer served.
    @Sendable static func statuses(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let username = try request.accountID()
        let paging = try request.paging()
        let params = request.params
        if try params.bool("pinned") == true {
            let pinned = try await caller.account(username).pinnedTweet
            return .json { bytes in
                writeArray(pinned.map { [$0] } ?? [], into: &bytes) {
                    MastodonStatus.write($0, origin: request.origin, options: .init(pinned: true), into: &$1)
                }
            }
        }
        if try params.bool("only_media") == true { return .emptyArray }
        var page = try await caller.call(
            API.Timelines.user,
            .init(
                username: username, sinceId: paging.lowerID, maxId: try paging.maxTweetID(),
                limit: paging.limit(.tweets)))
        let (excludeReplies, excludeReblogs) = (try params.bool("exclude_replies"), try params.bool("exclude_reblogs"))
        page.tweets.removeAll { tweet in
            (excludeReplies == true && tweet.inReplyToID != nil) || (excludeReblogs == true && tweet.repostOf != nil)
        }
        // The links page from the layer's page, whatever was left out of it.
        return TimelineEndpoints.statuses(
            page.tweets, request: request, path: "/api/v1/accounts/:id/statuses",
            next: page.oldestId.map { String($0) }, previous: page.newestId.map { String($0) })
    }

    private static func peopleOf(
        _ name: String, _ method: RPCMethod<API.Users.ListParams, API.Users.UserPage>
    ) -> MastodonEndpoint {
        let path = "/api/v1/accounts/:id/" + name
        return MastodonEndpoint("GET", path) { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                method, .init(username: try request.accountID(), limit: paging.limit(.people), cursor: paging.maxID))
            return people(page, request: request, path: path)
        }
    }

    private static func ownPeople(_ path: String, _ method: RPCMethod<API.PageParams, API.Users.UserPage>)
        -> MastodonEndpoint
    {
        MastodonEndpoint("GET", path) { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(method, .init(limit: paging.limit(.people), cursor: paging.maxID))
            return people(page, request: request, path: path)
        }
    }

    /// `POST /api/v1/accounts/:id/NAME`: the layer's relation method, then the Relationship it left.
    private static func relating<Result>(
        _ name: String, _ method: RPCMethod<API.Users.UsernameParams, Result>
    ) -> MastodonEndpoint {
        MastodonEndpoint("POST", "/api/v1/accounts/:id/" + name) { request, caller in
            let username = try request.accountID()
            _ = try await caller.call(method, .init(username: username))
            let account = try await caller.account(username)
            return .json { MastodonRelationship.write(account, into: &$0) }
        }
    }
}
