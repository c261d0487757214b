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
            API.Users.get,
            { (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                guard var overview = try await follows.overview(of: params.username, viewerID: login.userID) else {
                    throw TwitterError.notFound("User \(params.username)")
                }
                let account = try await lookup.id(of: params.username)
                if let pinned = try await services.access.pinnedTweet(
                    of: account, for: login.userID, in: services.pins)
                {
                    overview.pinnedTweet = try await services.feed.marked(
                        [pinned], for: login.userID, stores: services.readStores)[0]
                }
                return overview
            })
        router.register(
            API.Users.follow,
            { (params: API.Users.UsernameParams, context) in
                let (reader, followee) = try await lookup.other(params.username, context, doing: "follow")
                try services.rates.take(.follows, by: reader)
                _ = try await follows.follow(followee, by: reader)
                return API.Users.Following(following: true)
            })
        router.register(
            API.Users.unfollow,
            { (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                _ = try await follows.unfollow(try await lookup.id(of: params.username), by: login.userID)
                return API.Users.Following(following: false)
            })
        router.register(
            API.Users.followers,
            { (params: API.Users.ListParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                let page = try await follows.followers(of: try await lookup.id(of: params.username), page: request)
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
        router.register(
            API.Users.following,
            { (params: API.Users.ListParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                let page = try await follows.following(of: try await lookup.id(of: params.username), page: request)
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
        registerRelations(in: &router)
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
            router.register(
                method,
                { (params: API.Users.UsernameParams, context) in
                    let (reader, target) = try await lookup.other(params.username, context, doing: action)
                    _ = try await change(relations, target, reader)
                    return answer
                })
        }
        typealias List = @Sendable (any RelationStoring, _ by: Int64, PageRequest) async throws -> UserPage
        let lists: [(RPCMethod<API.Users.OwnListParams, API.Users.UserPage>, List)] = [
            (API.Users.muted, { try await $0.muted(by: $1, page: $2) }),
            (API.Users.blocked, { try await $0.blocked(by: $1, page: $2) }),
        ]
        for (method, list) in lists {
            router.register(
                method,
                { (params: API.Users.OwnListParams, context) in
                    let reader = try context.session.requireLogin().userID
                    let page = try await list(
                        relations, reader, try PageCursor.request(.people, limit: params.limit, cursor: params.cursor))
                    return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
                })
        }
    }
}

extension UserLookup {
    /// The caller and the account `username`, which must be someone else: acting on yourself is -32602.
    func other(_ username: String, _ context: RequestContext, doing action: String) async throws -> (
        reader: Int64, target: Int64
    ) {
        let reader = try context.session.requireLogin().userID
        let target = try await id(of: username)
        guard target != reader else { throw TwitterError.invalidFields(["username": "You can not \(action) yourself"]) }
        return (reader, target)
    }
}

extension TweetServices {
    /// A page of people for the caller, leaving out the accounts hidden from it (`TweetAccess.peopleRequest`).
    func pageRequest(_ limit: Int?, _ cursor: String?, _ context: RequestContext) async throws -> PageRequest {
        try await access.peopleRequest(limit: limit, cursor: cursor, for: context.session.requireLogin().userID)
    }
}
