import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/lists`: the caller's lists and their members. Who may see or change a list is the layer's: another
/// account's private list does not exist, and only its owner changes one.
enum ListEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/lists") { request, caller in
            let lists = try await caller.call(API.Lists.mine).lists
            return .json { bytes in writeArray(lists, into: &bytes) { MastodonList.write($0, into: &$1) } }
        },
        MastodonEndpoint("GET", "/api/v1/lists/:id") { request, caller in
            let list = try await caller.call(API.Lists.get, .init(id: try request.id()))
            return .json { MastodonList.write(list, into: &$0) }
        },
        MastodonEndpoint("POST", "/api/v1/lists") { request, caller in
            guard let title = request.params.string("title") else {
                throw MastodonError.unprocessable("title is required")
            }
            let list = try await caller.call(API.Lists.create, .init(name: title))
            return .json { MastodonList.write(list, into: &$0) }
        },
        MastodonEndpoint("PUT", "/api/v1/lists/:id") { request, caller in
            let list = try await caller.call(
                API.Lists.update, .init(id: try request.id(), name: request.params.string("title")))
            return .json { MastodonList.write(list, into: &$0) }
        },
        MastodonEndpoint("DELETE", "/api/v1/lists/:id") { request, caller in
            _ = try await caller.call(API.Lists.delete, .init(id: try request.id()))
            return .empty
        },
        MastodonEndpoint("GET", "/api/v1/lists/:id/accounts") { request, caller in
            let paging = try request.paging()
            // Mastodon's limit=0 is every member: ours pages, so it is the largest page.
            let limit = paging.requestedLimit == 0 ? API.PageSize.people.maximum : paging.limit(.people)
            let page = try await caller.call(
                API.Lists.members, .init(id: try request.id(), limit: limit, cursor: paging.maxID))
            return AccountEndpoints.people(page, request: request, path: "/api/v1/lists/:id/accounts")
        },
        members("POST", API.Lists.add),
        members("DELETE", API.Lists.remove),
    ]

    /// Adds or removes `account_ids[]`, one call each, in order; the first refusal ends it.
    private static func members(_ method: String, _ call: RPCMethod<API.Lists.MemberParams, UserList>)
        -> MastodonEndpoint
    {
        MastodonEndpoint(method, "/api/v1/lists/:id/accounts") { request, caller in
            let id = try request.id()
            let accounts = request.params.strings("account_ids")
            guard !accounts.isEmpty else { throw MastodonError.unprocessable("account_ids is required") }
            for account in accounts {
                _ = try await caller.call(call, .init(id: id, username: account))
            }
            return .empty
        }
    }
}
