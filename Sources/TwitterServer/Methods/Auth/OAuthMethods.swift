import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `oauth.*`: Mastodon's OAuth over twitterd's credentials. An account's access token is a personal token naming
/// its app and scopes; it logs in with `auth.login {provider: "token"}` and its scopes bind that login
/// (`ScopeMiddleware`). The MastodonAPI endpoints of /api/v1/apps and /oauth/* only translate to these.
struct OAuthMethods: MethodGroup {
    let services: AuthServices
    let oauth: OAuthService

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.OAuth.register, in: .open,
            { [oauth, services] (params: API.OAuth.RegisterParams, context) in
                // Open to every local process, so bounded per uid as signups are.
                try services.appRegistrations.take(by: context.session.peer.userID)
                let (app, secret) = try await oauth.registerApp(
                    name: params.name, redirectURIs: params.redirectUris, scopes: params.scopes,
                    website: params.website)
                return API.OAuth.App(app, secret: secret)
            })
        router.register(
            API.OAuth.token, in: .open,
            { (params: API.OAuth.TokenParams, context) in
                try await grant(params, context: context)
            })
        router.register(
            API.OAuth.revoke, in: .open,
            { [oauth, services] (params: API.OAuth.RevokeParams, context) in
                let app = try await oauth.authenticate(clientID: params.clientId, secret: params.clientSecret)
                guard let revocation = try await oauth.revoke(token: params.token, of: app) else {
                    return API.OAuth.Revoked(revoked: false)
                }
                // Its live logins here end now (their streams with them); other daemons read it from the log.
                services.liveLogins.revoke(revocation, requester: context.session)
                return API.OAuth.Revoked(revoked: true)
            })
        router.register(
            API.OAuth.authorize, in: .loggedIn,
            { [oauth] (params: API.OAuth.AuthorizeParams, context) in
                let login = context.login
                // A token never mints another credential: only a password, peer or session login authorizes.
                guard !login.restsOnPersonalToken else {
                    throw TwitterError(
                        .forbidden, "A token's login can not authorize apps; log in with the password or as a peer")
                }
                let app = try await oauth.app(clientID: params.clientId)
                let scopes = try oauth.scopes(requested: params.scope, of: app)
                let code = try await oauth.authorize(
                    userID: login.userID, app: app, scopes: scopes, redirectURI: params.redirectUri)
                return API.OAuth.Authorization(
                    code: code.code, app: app.name, scope: scopes.text, redirectUri: code.redirectURI,
                    expiresAt: code.expiresAt)
            })
        router.register(
            API.OAuth.current, in: .loggedIn,
            { [oauth] (_: NoParams, context) in
                guard let appID = context.login.appID, let app = try await oauth.app(id: appID) else {
                    throw TwitterError(.notFound, "This login rests on no OAuth app's token")
                }
                return API.OAuth.App(app)
            })
        router.register(
            API.OAuth.verify, in: .open,
            { [oauth] (params: API.OAuth.VerifyParams, _) in
                guard let app = try await oauth.appOfToken(params.token) else {
                    throw TwitterError(.invalidCredentials, "Invalid, expired or revoked token")
                }
                return API.OAuth.App(app)
            })
    }

    /// The three grants; each answers every scope it granted, as Mastodon.py insists.
    private func grant(_ params: API.OAuth.TokenParams, context: RequestContext) async throws -> API.OAuth.Token {
        let app = try await oauth.authenticate(clientID: params.clientId, secret: params.clientSecret)
        let userID: Int64
        let scopes: OAuthScopes
        switch params.grantType {
        case "password":
            scopes = try oauth.scopes(requested: params.scope, of: app)
            userID = try await passwordLogin(params, context: context)
        case "authorization_code":
            guard let code = params.code, !code.isEmpty else {
                throw TwitterError.invalidFields(["code": "is required for authorization_code"])
            }
            let redeemed = try await oauth.redeem(code: code, app: app, redirectURI: params.redirectUri)
            userID = redeemed.userID
            scopes = redeemed.scopes
        case "client_credentials":
            scopes = try oauth.scopes(requested: params.scope, of: app)
            let (_, token) = try await oauth.grantAppToken(app: app, scopes: scopes)
            return API.OAuth.Token(
                accessToken: token, tokenType: "Bearer", scope: Self.repeated(params.scope, scopes), createdAt: Date())
        default:
            throw OAuthError.unsupportedGrantType
        }
        if let reason = try await services.moderation?.suspension(of: userID) {
            throw TwitterError(.forbidden, "This account is suspended: \(reason)")
        }
        let (record, token) = try await oauth.grant(userID: userID, app: app, scopes: scopes)
        let scope = params.grantType == "password" ? Self.repeated(params.scope, scopes) : scopes.text
        return API.OAuth.Token(accessToken: token, tokenType: "Bearer", scope: scope, createdAt: record.createdAt)
    }

    /// The scopes granted as asked for, in that order; `read` when none were.
    private static func repeated(_ asked: String?, _ granted: OAuthScopes) -> String {
        guard let asked, !asked.isEmpty else { return granted.text }
        return OAuthScopes.repeated(asked)
    }

    /// The password grant's account: the password provider's login with the login throttle, per (account, uid),
    /// exactly as `auth.login {provider: "password"}` goes.
    private func passwordLogin(_ params: API.OAuth.TokenParams, context: RequestContext) async throws -> Int64 {
        guard let provider = services.providers.enabled.provider(named: "password") else {
            throw TwitterError(.forbidden, "Password logins are not enabled on this daemon")
        }
        guard let username = params.username, let password = params.password else {
            throw TwitterError.invalidFields(
                ["username": "is required for password (the e-mail)", "password": "is required for password"])
        }
        let credentials = JSONValue.object(["email": .string(username), "password": .string(password)])
        do {
            return try await provider.logIn(
                from: JSONCredentials(value: credentials), context: LoginContext(peer: context.session.peer),
                throttle: services.throttle
            ).user.id
        } catch let error as TwitterError where error.kind == .invalidCredentials {
            throw OAuthError.invalidGrant(error.message)
        }
    }
}
