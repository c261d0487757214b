import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/statuses`: posting, reading, deleting and marking tweets, and who liked, reposted or quoted one.
enum StatusEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("POST", "/api/v1/statuses", post),
        MastodonEndpoint("GET", "/api/v1/statuses/:id") { request, caller in
            let tweet = try await caller.tweet(try request.id())
            return .json { MastodonStatus.write(tweet, origin: request.origin, into: &$0) }
        },
        MastodonEndpoint("DELETE", "/api/v1/statuses/:id") { request, caller in
            let id = try request.id()
            let tweet = try await caller.tweet(id)
            _ = try await caller.call(API.Tweets.delete, .init(id: id))
            return .json {
                MastodonStatus.write(tweet, origin: request.origin, options: .init(includesText: true), into: &$0)
            }
        },
        MastodonEndpoint("GET", "/api/v1/statuses/:id/context", context),
        marking("favourite") { id, caller in _ = try await caller.call(API.Tweets.like, .init(id: id)) },
        marking("unfavourite") { id, caller in _ = try await caller.call(API.Tweets.unlike, .init(id: id)) },
        marking("bookmark") { id, caller in _ = try await caller.call(API.Bookmarks.add, .init(id: id)) },
        marking("unbookmark") { id, caller in _ = try await caller.call(API.Bookmarks.remove, .init(id: id)) },
        MastodonEndpoint("POST", "/api/v1/statuses/:id/reblog") { request, caller in
            // Mastodon answers the reblog itself: a Status whose `reblog` is the original.
            let repost = try await caller.call(API.Tweets.repost, .init(id: try request.id()))
            return .json { MastodonStatus.write(repost, origin: request.origin, into: &$0) }
        },
        marking("unreblog") { id, caller in _ = try await caller.call(API.Tweets.unrepost, .init(id: id)) },
        MastodonEndpoint("POST", "/api/v1/statuses/:id/pin") { request, caller in
            let id = try request.id()
            _ = try await caller.call(API.Profiles.pin, .init(id: id))
            let tweet = try await caller.tweet(id)
            return .json {
                MastodonStatus.write(tweet, origin: request.origin, options: .init(pinned: true), into: &$0)
            }
        },
        MastodonEndpoint("POST", "/api/v1/statuses/:id/unpin", unpin),
        MastodonEndpoint("GET", "/api/v1/statuses/:id/favourited_by") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Tweets.likedBy,
                .init(id: try request.id(), limit: paging.limit(.people), cursor: paging.maxID))
            return AccountEndpoints.people(page, request: request, path: "/api/v1/statuses/:id/favourited_by")
        },
        MastodonEndpoint("GET", "/api/v1/statuses/:id/reblogged_by") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Tweets.repostedBy,
                .init(id: try request.id(), limit: paging.limit(.people), cursor: paging.maxID))
            return AccountEndpoints.people(page, request: request, path: "/api/v1/statuses/:id/reblogged_by")
        },
        MastodonEndpoint("GET", "/api/v1/statuses/:id/quotes") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Tweets.quotes, .init(id: try request.id(), limit: paging.limit(.tweets), cursor: paging.maxID))
            return TimelineEndpoints.statuses(
                page.tweets, request: request, path: "/api/v1/statuses/:id/quotes", next: page.nextCursor,
                previous: nil)
        },
    ]

    /// `POST /api/v1/statuses/:id/NAME`: does `action` to the tweet, then answers it as the caller sees it now.
    private static func marking(
        _ name: String, _ action: @escaping @Sendable (Int64, any MastodonCaller) async throws -> Void
    ) -> MastodonEndpoint {
        MastodonEndpoint("POST", "/api/v1/statuses/:id/" + name) { request, caller in
            let id = try request.id()
            try await action(id, caller)
            let tweet = try await caller.tweet(id)
            return .json { MastodonStatus.write(tweet, origin: request.origin, into: &$0) }
        }
    }

    /// `POST /api/v1/statuses`: a tweet, or for `visibility=direct` a direct message to the accounts the text
    /// mentions (their `messagesFrom` decides, in the layer), never a tweet.
    @Sendable static func post(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let params = request.params
        let text = params.string("status") ?? ""
        if let spoiler = params.string("spoiler_text"), !spoiler.isEmpty {
            throw MastodonError.unprocessable("spoiler_text is not supported: twitterd has no content warnings")
        }
        if !params.strings("media_ids").isEmpty {
            throw MastodonError.unprocessable("media_ids is not supported: twitterd has no media")
        }
        if params.string("poll[expires_in]") != nil || !params.strings("poll[options]").isEmpty {
            throw MastodonError.unprocessable("polls are not supported")
        }
        if let scheduled = params.string("scheduled_at"), !scheduled.isEmpty {
            throw MastodonError.unprocessable("scheduled_at is not supported")
        }
        switch params.string("visibility") ?? "public" {
        case "", "public", "unlisted":
            break
        case "direct":
            return try await postDirect(text, request: request, caller: caller)
        case "private":
            // Followers-only does not exist here: posting it publicly would show it to everyone.
            throw MastodonError.unprocessable("visibility private is not supported: tweets are public")
        default:
            throw MastodonError.unprocessable("visibility must be public, unlisted or direct")
        }
        let tweet = try await caller.call(
            API.Tweets.post,
            .init(
                text: text, idempotencyKey: request.idempotencyKey,
                inReplyToId: try statusID(params, "in_reply_to_id"),
                quoteOf: try statusID(params, "quoted_status_id") ?? statusID(params, "quote_id")))
        return .json { MastodonStatus.write(tweet, origin: request.origin, into: &$0) }
    }

    private static func postDirect(_ text: String, request: MastodonRequest, caller: any MastodonCaller)
        async throws -> MastodonResponse
    {
        var recipients: [String] = []
        for mention in EntityScanner.scan(text).mentions
        where !recipients.contains(where: { $0.lowercased() == mention.username.lowercased() }) {
            recipients.append(mention.username)
        }
        guard !recipients.isEmpty else {
            throw MastodonError.unprocessable("A direct status must mention the accounts it is for")
        }
        if request.params.string("in_reply_to_id").map({ !$0.isEmpty }) == true {
            throw MastodonError.unprocessable("A direct status can not answer a status")
        }
        let message = try await caller.call(
            API.Messages.send, .init(text: text, to: recipients, idempotencyKey: request.idempotencyKey))
        return .json { MastodonConversation.writeStatus(of: message, origin: request.origin, into: &$0) }
    }

    private static func statusID(_ params: MastodonParams, _ key: String) throws(MastodonError) -> Int64? {
        guard let text = params.string(key), !text.isEmpty else { return nil }
        guard let id = Int64(text), id > 0 else { throw .unprocessable("\(key) must be a status id") }
        return id
    }

    /// `GET /api/v1/statuses/:id/context`: the thread around a tweet; deleted places are left out.
    @Sendable static func context(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let thread = try await caller.call(API.Tweets.thread, .init(id: try request.id()))
        return .json { bytes in
            JSONObjectWriter.write(into: &bytes) { context, bytes in
                context.raw("ancestors", into: &bytes) { writeItems(thread.ancestors, origin: request.origin, &$0) }
                context.raw("descendants", into: &bytes) {
                    writeItems(thread.descendants, origin: request.origin, &$0)
                }
            }
        }
    }

    private static func writeItems(_ items: [API.Tweets.ThreadItem], origin: String, _ bytes: inout [UInt8]) {
        let tweets = items.compactMap { item -> Tweet? in
            if case .tweet(let tweet) = item { return tweet }
            return nil
        }
        writeArray(tweets, into: &bytes) { MastodonStatus.write($0, origin: origin, into: &$1) }
    }

    /// `POST /api/v1/statuses/:id/unpin`: our unpin takes back whatever is pinned, so it is asked only when this
    /// tweet is the one pinned.
    @Sendable static func unpin(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let id = try request.id()
        let tweet = try await caller.tweet(id)
        let me = try await caller.me()
        if try await caller.account(me.username).pinnedTweet?.id == id {
            _ = try await caller.call(API.Profiles.unpin)
        }
        return .json { MastodonStatus.write(tweet, origin: request.origin, into: &$0) }
    }
}
