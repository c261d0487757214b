import JSONRPC
import TwitterAPI
import TwitterCore

/// `lists.*`: the caller's lists, and the public lists of others. A handler checks the fields
/// (`ListRules`) and who may see a list (`TweetAccess.list`); who may change one is `ListRule`'s, in the store.
/// `timeline.list` and list subscriptions are `TimelineMethods`'.
struct ListMethods: MethodGroup {
    let services: TweetServices
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        let lists = services.lists
        router.register(
            API.Lists.create, in: .loggedIn,
            { (params: API.Lists.CreateParams, context) in
                let owner = context.userID
                let draft = ListRules.normalize(
                    ListDraft(
                        name: params.name, description: params.description ?? "",
                        isPrivate: params.isPrivate ?? false))
                try ListRules.draft.validate(draft)
                return try await lists.createList(draft, by: owner)
            })
        router.register(
            API.Lists.update, in: .loggedIn,
            { (params: API.Lists.UpdateParams, context) in
                let reader = context.userID
                let patch = ListRules.normalize(
                    ListPatch(name: params.name, description: params.description, isPrivate: params.isPrivate))
                try ListRules.patch.validate(patch)
                return try await lists.updateList(params.id, patch, by: reader)
            })
        router.register(API.Lists.delete, in: .loggedIn) { params, context in
            let reader = context.userID
            try await lists.deleteList(params.id, by: reader)
            return API.Lists.Deleted(deleted: true)
        }
        router.register(
            API.Lists.add, in: .loggedIn,
            { [lookup] (params: API.Lists.MemberParams, context) in
                let reader = context.userID
                return try await lists.addMember(try await lookup.id(of: params.username), to: params.id, by: reader)
            })
        router.register(
            API.Lists.remove, in: .loggedIn,
            { [lookup] (params: API.Lists.MemberParams, context) in
                let reader = context.userID
                return try await lists.removeMember(
                    try await lookup.id(of: params.username), from: params.id, by: reader)
            })
        registerReads(in: &router)
    }

    /// The methods that read lists: what the caller may see of them.
    private func registerReads(in router: inout Router<RequestContext>) {
        let lists = services.lists
        router.register(
            API.Lists.get, in: .loggedIn,
            { (params: API.Lists.IDParams, context) in
                let reader = context.userID
                return try await services.access.list(params.id, for: reader, in: lists)
            })
        router.register(
            API.Lists.mine, in: .loggedIn,
            { (_: NoParams, context) in
                let reader = context.userID
                return API.Lists.Lists(lists: try await lists.lists(ownedBy: reader, includingPrivate: true))
            })
        router.register(
            API.Lists.of, in: .loggedIn,
            { [lookup] (params: API.Users.UsernameParams, context) in
                let reader = context.userID
                let owner = try await lookup.id(of: params.username)
                return API.Lists.Lists(lists: try await services.access.publicLists(of: owner, for: reader, in: lists))
            })
        router.register(
            API.Lists.members, in: .loggedIn,
            { (params: API.Lists.MembersParams, context) in
                let reader = context.userID
                _ = try await services.access.list(params.id, for: reader, in: lists)
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                let page = try await lists.members(of: params.id, page: request)
                return API.Users.UserPage(page)
            })
    }
}
