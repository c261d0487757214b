import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/conversations`: our direct message conversations, most recent first, by cursor.
enum ConversationEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/conversations") { request, caller in
            let paging = try request.paging()
            let me = try await caller.me()
            let page = try await caller.call(
                API.Messages.conversations, .init(limit: paging.limit(.search), cursor: paging.maxID))
            let link = MastodonLink.header(
                for: request, path: "/api/v1/conversations", next: page.nextCursor, previous: nil)
            return .json(headers: link.map { [$0] } ?? []) { bytes in
                writeArray(page.conversations, into: &bytes) {
                    MastodonConversation.write($0, caller: me.username, origin: request.origin, into: &$1)
                }
            }
        },
        MastodonEndpoint("POST", "/api/v1/conversations/:id/read") { request, caller in
            let id = try request.id()
            let me = try await caller.me()
            _ = try await caller.call(API.Messages.markRead, .init(conversationId: id))
            // The conversation as it is now: found on the caller's pages, which hold every one they are in.
            var cursor: String?
            repeat {
                let page = try await caller.call(API.Messages.conversations, .init(limit: 100, cursor: cursor))
                if let conversation = page.conversations.first(where: { $0.id == id }) {
                    return .json {
                        MastodonConversation.write(conversation, caller: me.username, origin: request.origin, into: &$0)
                    }
                }
                cursor = page.nextCursor
            } while cursor != nil
            throw MastodonError.notFound()
        },
    ]
}
