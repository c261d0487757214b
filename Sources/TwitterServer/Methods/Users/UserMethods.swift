import JSONRPC
import TwitterAPI
import TwitterCore

/// `users.*`: accounts as others see them, and the follow graph.
struct UserMethods: MethodGroup {
    let follows: any FollowStoring
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Users.get,
            .awaited { [follows] (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                guard let overview = try await follows.overview(of: params.username, viewerID: login.userID) else {
                    throw TwitterError.notFound("User \(params.username)")
                }
                return overview
            })
        router.register(
            API.Users.follow,
            .awaited { [follows, lookup] (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                let followee = try await lookup.id(of: params.username)
                guard followee != login.userID else {
                    throw TwitterError.invalidFields(["username": "You can not follow yourself"])
                }
                _ = try await follows.follow(followee, by: login.userID)
                return API.Users.Following(following: true)
            })
        router.register(
            API.Users.unfollow,
            .awaited { [follows, lookup] (params: API.Users.UsernameParams, context) in
                let login = try context.session.requireLogin()
                _ = try await follows.unfollow(try await lookup.id(of: params.username), by: login.userID)
                return API.Users.Following(following: false)
            })
        router.register(
            API.Users.followers,
            .awaited { [follows, lookup] (params: API.Users.ListParams, _) in
                let request = try PageCursor.request(limit: params.limit, cursor: params.cursor)
                let page = try await follows.followers(of: try await lookup.id(of: params.username), page: request)
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
        router.register(
            API.Users.following,
            .awaited { [follows, lookup] (params: API.Users.ListParams, _) in
                let request = try PageCursor.request(limit: params.limit, cursor: params.cursor)
                let page = try await follows.following(of: try await lookup.id(of: params.username), page: request)
                return API.Users.UserPage(users: page.users, nextCursor: PageCursor.next(page))
            })
    }
}
