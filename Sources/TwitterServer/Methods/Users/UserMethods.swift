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
            .awaited { (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                guard let overview = try await follows.overview(of: params.username, viewerID: login.userID) else {
                    throw TwitterError.notFound("User \(params.username)")
                }
                return overview
            })
        router.register(
            API.Users.follow,
            .awaited { (params: API.Users.UsernameParams, context) in
                let (reader, followee) = try await lookup.other(params.username, context, doing: "follow")
                _ = try await follows.follow(followee, by: reader)
                return API.Users.Following(following: true)
            })
        router.register(
            API.Users.unfollow,
            .awaited { (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                _ = try await follows.unfollow(try await lookup.id(of: params.username), by: login.userID)
                return API.Users.Following(following: false)
            })
        router.register(
            API.Users.followers,
            .awaited { (params: API.Users.ListParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                let page = try await follows.followers(of: try await lookup.id(of: params.username), page: request)
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
        router.register(
            API.Users.following,
            .awaited { (params: API.Users.ListParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                let page = try await follows.following(of: try await lookup.id(of: params.username), page: request)
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
        registerRelations(in: &router)
    }

    /// Mutes and blocks.
    private func registerRelations(in router: inout Router<RequestContext>) {
        let (relations, lookup) = (services.relations, lookup)
        router.register(
            API.Users.mute,
            .awaited { (params: API.Users.UsernameParams, context) in
                let (reader, target) = try await lookup.other(params.username, context, doing: "mute")
                _ = try await relations.mute(target, by: reader)
                return API.Users.Relation(muted: true)
            })
        router.register(
            API.Users.unmute,
            .awaited { (params: API.Users.UsernameParams, context) in
                let (reader, target) = try await lookup.other(params.username, context, doing: "unmute")
                _ = try await relations.unmute(target, by: reader)
                return API.Users.Relation(muted: false)
            })
        router.register(
            API.Users.block,
            .awaited { (params: API.Users.UsernameParams, context) in
                let (reader, target) = try await lookup.other(params.username, context, doing: "block")
                _ = try await relations.block(target, by: reader)
                return API.Users.Relation(blocked: true)
            })
        router.register(
            API.Users.unblock,
            .awaited { (params: API.Users.UsernameParams, context) in
                let (reader, target) = try await lookup.other(params.username, context, doing: "unblock")
                _ = try await relations.unblock(target, by: reader)
                return API.Users.Relation(blocked: false)
            })
        router.register(
            API.Users.muted,
            .awaited { (params: API.Users.OwnListParams, context) in
                let reader = try context.session.requireLogin().userID
                let page = try await relations.muted(
                    by: reader, page: try PageCursor.request(limit: params.limit, cursor: params.cursor))
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
        router.register(
            API.Users.blocked,
            .awaited { (params: API.Users.OwnListParams, context) in
                let reader = try context.session.requireLogin().userID
                let page = try await relations.blocked(
                    by: reader, page: try PageCursor.request(limit: params.limit, cursor: params.cursor))
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
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
    /// A page of people for the caller, leaving out the accounts hidden from it.
    func pageRequest(_ limit: Int?, _ cursor: String?, _ context: RequestContext) async throws -> PageRequest {
        let reader = try context.session.requireLogin().userID
        var request = try PageCursor.request(limit: limit, cursor: cursor)
        request.hiding = try await hiddenAccounts(of: reader).all
        return request
    }
}
