import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `auth.*`: sign up, log in through any provider, log out, who am I, change password, link a uid.
struct AuthMethods: MethodGroup {
    let services: AuthServices

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Auth.providers, in: .open,
            { [services] (_: NoParams, _) in
                services.providers.enabled.all.map {
                    API.Auth.Provider(name: $0.name, credentials: $0.credentialFields)
                }
            })
        router.register(
            API.Auth.signup, in: .open,
            { (params: API.Auth.SignupParams, context) in
                try await signup(params, context: context)
            })
        router.register(
            API.Auth.login, in: .open,
            { (params: API.Auth.LoginParams, context) in
                try await logIn(params, context: context)
            })
        router.register(
            API.Auth.logout, in: .loggedIn,
            { [services] (_: NoParams, context) in
                let login = context.login
                if let sessionID = login.sessionID {
                    try await services.sessions.revokeSession(id: sessionID, userID: login.userID)
                    // Other connections that resumed the same session (twctl runs) end with it.
                    services.liveLogins.revoke(
                        .token(id: sessionID, userID: login.userID, reason: .loggedOut), requester: context.session)
                }
                context.session.logOut()
                return API.Auth.LoggedOut(loggedOut: true)
            })
        router.register(
            API.Auth.whoami, in: .loggedIn,
            { [services] (_: NoParams, context) in
                let login = context.login
                guard let user = try await services.users.user(id: login.userID) else {
                    throw TwitterError.notFound("Account")
                }
                return API.Auth.WhoAmI(
                    user: user, provider: login.provider, expiresAt: login.expiresAt, role: login.role)
            })
        router.register(
            API.Auth.changePassword, in: .loggedIn,
            { (params: API.Auth.ChangePasswordParams, context) in
                try await changePassword(params, context: context)
            })
        PeerLinkMethods(services: services).register(in: &router)
        if let oauth = services.oauth { OAuthMethods(services: services, oauth: oauth).register(in: &router) }
    }

    /// Signs up through the enabled provider that can create accounts (the password provider).
    private func signup(_ params: API.Auth.SignupParams, context: RequestContext) async throws -> API.Auth.LoginResult {
        guard let provider = services.providers.enabled.registering, let signUp = provider.signUp else {
            throw TwitterError(.forbidden, "Signing up is not enabled on this daemon")
        }
        let request = SignupRequest(
            email: params.email.trimmingCharacters(in: .whitespaces), password: params.password,
            username: params.username)
        // Taken before the password is hashed, so a refused burst costs no hashing either.
        let uid = context.session.peer.userID
        try services.signups.take(by: uid)
        let user: User
        do {
            user = try await signUp(request)
        } catch {
            services.signups.giveBack(by: uid)
            throw error
        }
        return try await startSession(for: user, provider: provider.name, resumed: nil, context: context)
    }

    private func logIn(_ params: API.Auth.LoginParams, context: RequestContext) async throws -> API.Auth.LoginResult {
        let enabled = services.providers.enabled
        guard let provider = enabled.provider(named: params.provider) else {
            let known = enabled.names.joined(separator: ", ")
            throw TwitterError.invalidFields(["provider": "must be one of: \(known)"])
        }
        let authentication: Authentication
        do {
            authentication = try await provider.logIn(
                from: JSONCredentials(value: params.credentials), context: LoginContext(peer: context.session.peer),
                throttle: services.throttle
            )
        } catch let error as DecodingError {
            throw TwitterError.invalidFields(DecodingFailure.fields(of: error, prefix: "credentials"))
        }
        return try await startSession(
            for: authentication.user, provider: provider.name, resumed: authentication.resumedSession, context: context
        )
    }

    private func startSession(
        for user: User, provider: String, resumed: IssuedSession?, context: RequestContext
    ) async throws -> API.Auth.LoginResult {
        try await refuseIfSuspended(user)
        let peer = context.session.peer
        var peerIsAccount = provider == "peer"
        if !peerIsAccount { peerIsAccount = try await services.peerLinks.linkedUser(uid: peer.userID)?.id == user.id }
        let stored = try await services.moderation?.role(of: user.id) ?? .user
        let role = services.roles.role(stored: stored, peer: peer, peerIsAccount: peerIsAccount)
        let session: IssuedSession
        if let resumed {
            session = resumed
        } else {
            // A peer login's session remembers its link, which `auth.unlinkPeer` ends it by.
            session = try await services.sessions.issueSession(
                userID: user.id, provider: provider, mintedByPeer: provider == "peer" ? peer.userID : nil)
        }
        context.session.logIn(
            SessionLogin(userID: user.id, provider: provider, token: session, role: role),
            listedIn: services.liveLogins)
        // A suspension that landed between the check and the listing revoked the live logins without this one.
        do {
            try await refuseIfSuspended(user)
        } catch {
            context.session.logOut()
            throw error
        }
        return API.Auth.LoginResult(user: user, session: API.Auth.Session(session))
    }

    /// -32003 with the reason when `user` is suspended.
    private func refuseIfSuspended(_ user: User) async throws {
        if let reason = try await services.moderation?.suspension(of: user.id) {
            throw TwitterError(
                .forbidden, "This account is suspended: \(reason)", details: ["reason": .string(reason)])
        }
    }

    private func changePassword(
        _ params: API.Auth.ChangePasswordParams, context: LoggedInContext
    ) async throws -> API.Auth.PasswordChanged {
        let login = context.login
        try Validator<API.Auth.ChangePasswordParams>.field(\.newPassword, "newPassword", services.passwords.policy)
            .validate(params)
        guard
            try await services.confirmPassword(
                params.currentPassword, of: login.userID, peer: context.session.peer, field: "currentPassword")
                == .confirmed
        else {
            throw TwitterError(.forbidden, "This account has no password to change")
        }
        try await services.users.setPasswordHash(
            try await services.passwords.hash(params.newPassword), userID: login.userID)
        try await services.endCredentials(
            of: login.userID, keeping: login.sessionID, everything: false, reason: .passwordChanged,
            requester: context.session)
        return API.Auth.PasswordChanged(passwordChanged: true)
    }
}

/// A provider's credentials, decoded from the request's JSON only once the provider is known.
struct JSONCredentials: CredentialsSource {
    let value: JSONValue

    func decode<Credentials: Decodable>(_ type: Credentials.Type) throws -> Credentials {
        try JSONValueDecoder().decode(type, from: value)
    }
}
