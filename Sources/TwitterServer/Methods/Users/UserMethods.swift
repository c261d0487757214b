import JSONRPC
import TwitterAPI
import TwitterCore

/// `users.*`: accounts as others see them, the follow graph, mutes and blocks.
struct UserMethods: MethodGroup {
    let services: TweetServices
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        let (follows, lookup, services) = (services.follows, lookup, services)
        router.register(
            API.Users.get, in: .loggedIn,
            { (params: API.Users.UsernameParams, context) in
                let login = context.login
                // The counts are the read model's: 81 views a second of an account with 10,000 followers when
                // counted each time (bench/load_client), 12,311 kept.
                guard let account = try await services.account(named: params.username, viewerID: login.userID) else {
                    throw TwitterError.notFound("User \(params.username)")
                }
                var overview = account.overview
                if let pinned = try await services.access.pinnedTweet(account.pinnedTweetID, for: login.userID) {
                    overview.pinnedTweet = try await services.feed.marked(
                        [pinned], for: login.userID, stores: services.readStores)[0]
                }
                return overview
            })
        router.register(API.Users.follow, in: .loggedIn) { params, context in
            let reader = context.userID
            let followee = try await lookup.other(params.username, than: reader, doing: "follow")
            _ = try await follows.follow(followee, by: reader)
            return API.Users.Following(following: true)
        }
        router.register(API.Users.unfollow, in: .loggedIn) { params, context in
            let reader = context.userID
            _ = try await follows.unfollow(try await lookup.id(of: params.username), by: reader)
            return API.Users.Following(following: false)
        }
        registerPeople(API.Users.followers, in: &router) { try await $0.followers(of: $1, page: $2) }
        registerPeople(API.Users.following, in: &router) { try await $0.following(of: $1, page: $2) }
        registerRelations(in: &router)
    }

    /// Registers `method`, a page of the people `read` finds in the follow graph of the account the params name,
    /// without those hidden from the caller.
    private func registerPeople(
        _ method: RPCMethod<API.Users.ListParams, API.Users.UserPage>, in router: inout Router<RequestContext>,
        _ read: @escaping @Sendable (any FollowStoring, _ account: Int64, PageRequest) async throws -> UserPage
    ) {
        router.register(
            method, in: .loggedIn,
            { [services, lookup] (params: API.Users.ListParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                let account = try await lookup.id(of: params.username)
                return API.Users.UserPage(try await read(services.follows, account, request))
            })
    }

    /// Mutes and blocks: four changes of one shape and two lists of one shape.
    private func registerRelations(in router: inout Router<RequestContext>) {
        let (relations, lookup) = (services.relations, lookup)
        typealias Change = @Sendable (any RelationStoring, _ target: Int64, _ by: Int64) async throws -> Bool
        let changes: [(RPCMethod<API.Users.UsernameParams, API.Users.Relation>, API.Users.Relation, Change)] = [
            (API.Users.mute, .init(muted: true), { try await $0.mute($1, by: $2) }),
            (API.Users.unmute, .init(muted: false), { try await $0.unmute($1, by: $2) }),
            (API.Users.block, .init(blocked: true), { try await $0.block($1, by: $2) }),
            (API.Users.unblock, .init(blocked: false), { try await $0.unblock($1, by: $2) }),
        ]
        for (method, answer, change) in changes {
            // "users.mute" refuses "You can not mute yourself".
            let action = String(method.descriptor.name.dropFirst("users.".count))
            router.register(method, in: .loggedIn) { params, context in
                let reader = context.userID
                let target = try await lookup.other(params.username, than: reader, doing: action)
                _ = try await change(relations, target, reader)
                return answer
            }
        }
        typealias List = @Sendable (any RelationStoring, _ by: Int64, PageRequest) async throws -> UserPage
        let lists: [(RPCMethod<API.Users.OwnListParams, API.Users.UserPage>, List)] = [
            (API.Users.muted, { try await $0.muted(by: $1, page: $2) }),
            (API.Users.blocked, { try await $0.blocked(by: $1, page: $2) }),
        ]
        for (method, list) in lists {
            router.register(
                method, in: .loggedIn,
                { (params: API.Users.OwnListParams, context) in
                    let reader = context.userID
                    let page = try await list(
                        relations, reader, try PageCursor.request(.people, limit: params.limit, cursor: params.cursor))
                    return API.Users.UserPage(page)
                })
        }
    }
}

extension UserLookup {
    /// The id of the account `username`, which must be someone but `reader`: acting on yourself is -32602.
    func other(_ username: String, than reader: Int64, doing action: String) async throws -> Int64 {
        let target = try await id(of: username)
        guard target != reader else { throw TwitterError.invalidFields(["username": "You can not \(action) yourself"]) }
        return target
    }
}

extension TweetServices {
    /// A page of people for the caller, leaving out the accounts hidden from it (`TweetAccess.peopleRequest`).
    func pageRequest(_ limit: Int?, _ cursor: String?, _ context: LoggedInContext) async throws -> PageRequest {
        try await access.peopleRequest(limit: limit, cursor: cursor, for: context.userID)
    }
}
