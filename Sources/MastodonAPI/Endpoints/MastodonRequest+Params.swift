import JSONRPC
import TwitterAPI
import TwitterCore

// What every endpoint reads of its request: the ids in its path, its paging.
extension MastodonRequest {
    /// The path's `:name` segment as one of our ids (a status, a list, a notification); 404 when it is not one, as
    /// Mastodon answers for an id that names nothing.
    func id(_ name: String = "id") throws(MastodonError) -> Int64 {
        guard let text = pathParameters[name], let id = Int64(text), id > 0 else { throw .notFound() }
        return id
    }

    /// The path's account id: a username (see `MastodonAccount`); 404 when absent.
    func accountID(_ name: String = "id") throws(MastodonError) -> String {
        guard let text = pathParameters[name], !text.isEmpty else { throw .notFound() }
        return text
    }

    /// The request's paging params.
    func paging() throws(MastodonError) -> MastodonPaging {
        try MastodonPaging(params)
    }
}

extension MastodonCaller {
    /// The caller's own account: who the bearer token logged in.
    func me() async throws(RPCError) -> User {
        try await call(API.Auth.whoami).user
    }

    /// An account as `users.get` shows it to the caller.
    func account(_ username: String) async throws(RPCError) -> UserOverview {
        try await call(API.Users.get, .init(username: username))
    }

    /// An account as `users.get` shows it; nil when the layer says there is none (to the caller).
    func accountIfFound(_ username: String) async throws(RPCError) -> UserOverview? {
        let outcome: Result<UserOverview, RPCError>
        do {
            outcome = .success(try await account(username))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let account): return account
        case .failure(let error) where error.kind == "not_found": return nil
        case .failure(let error): throw error
        }
    }

    /// A tweet as the caller may see it.
    func tweet(_ id: Int64) async throws(RPCError) -> Tweet {
        try await call(API.Tweets.get, .init(id: id))
    }
}
