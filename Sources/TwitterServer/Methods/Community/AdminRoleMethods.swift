import JSONRPC
import TwitterAPI
import TwitterCore

/// `admin.roles.grant` and `admin.roles.revoke`: the admin role is stored with the account's id, so it follows
/// the account through a rename and never passes to whoever takes a name later. Each change is audited, and the
/// account's live connections end (here and on other daemons) so that none keeps a role it no longer has; its
/// next login, a twctl run resuming its session included, has the new one.
struct AdminRoleMethods {
    let auth: AuthServices
    let community: CommunityServices

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Admin.grantRole, in: .admin,
            { (params: API.Users.UsernameParams, context) in
                let account = try await AdminMethods.account(params.username, community.moderation)
                return try await change(account, to: .admin, method: API.Admin.grantRole.name, context: context)
            })
        router.register(
            API.Admin.revokeRole, in: .admin,
            { (params: API.Users.UsernameParams, context) in
                let admin = context.login
                let account = try await AdminMethods.account(params.username, community.moderation)
                guard account.id != admin.userID else {
                    throw TwitterError.invalidFields(["username": "You can not revoke your own role"])
                }
                return try await change(account, to: .user, method: API.Admin.revokeRole.name, context: context)
            })
    }

    /// Stores `role` for `account`, found once by the caller.
    private func change(
        _ account: ModeratedAccount, to role: AccountRole, method: String, context: AdminContext
    ) async throws -> API.Admin.RoleChanged {
        let admin = context.login
        let changed = try await community.moderation.setRole(role, of: account.id)
        if changed {
            auth.liveLogins.revoke(.account(userID: account.id, reason: .roleChanged), requester: context.session)
            try await community.audit(
                auth.username(of: admin), method, target: account.username, reason: nil)
        }
        return API.Admin.RoleChanged(username: account.username, role: role, changed: changed)
    }
}
