import Foundation
import JSONRPC
import TwitterAPI

/// Mastodon's app registration and OAuth endpoints, each a translation onto `oauth.*` (docs/MASTODON.md): the
/// layer registers apps, grants, revokes and checks every credential. No `/.well-known/oauth-authorization-server`:
/// Mastodon.py would then insist on https, which a loopback daemon does not serve.
public enum OAuthEndpoints {
    /// Every endpoint of the group, for `MastodonRoutes.all`.
    public static let all: [MastodonEndpoint] = [
        MastodonEndpoint("POST", "/api/v1/apps", registerApp),
        MastodonEndpoint("GET", "/api/v1/apps/verify_credentials", verifyApp),
        MastodonEndpoint("POST", "/oauth/token", token),
        MastodonEndpoint("POST", "/oauth/revoke", revoke),
        MastodonEndpoint("GET", "/oauth/authorize", authorizePage),
        MastodonEndpoint("GET", "/oauth/authorize/", authorizePage),
    ]

    /// `POST /api/v1/apps`: `redirect_uris` as one string (URIs separated by white space, as Mastodon splits
    /// them) or an array.
    @Sendable static func registerApp(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let params = request.params
        guard let name = params.string("client_name"), !name.isEmpty else {
            throw MastodonError.unprocessable("Validation failed: Application name can't be blank")
        }
        let uris = params.strings("redirect_uris").flatMap { $0.split(whereSeparator: \.isWhitespace) }.map(String.init)
        guard !uris.isEmpty else {
            throw MastodonError.unprocessable("Validation failed: Redirect URI can't be blank")
        }
        // Mastodon takes one space-separated string; a JSON array of scopes is read alike.
        let scopes = params.strings("scopes").isEmpty ? nil : params.strings("scopes").joined(separator: " ")
        let registered = API.OAuth.RegisterParams(
            name: name, redirectUris: uris, scopes: scopes, website: params.string("website"))
        let app: API.OAuth.App
        do {
            app = try await caller.call(API.OAuth.register, registered)
        } catch {
            throw MastodonError.unprocessable("Validation failed: \(error.message)")
        }
        return try MastodonApplication(app).response()
    }

    /// `GET /api/v1/apps/verify_credentials`: the app of the bearer token the request logged in with.
    @Sendable static func verifyApp(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        var app: MastodonApplication
        do {
            app = MastodonApplication(try await caller.call(API.OAuth.current))
        } catch {
            throw MastodonError(status: 401, "The access token is invalid")
        }
        (app.clientID, app.clientSecret) = (nil, nil)
        return try app.response()
    }

    /// `POST /oauth/token`: the three grants, answered as Doorkeeper answers them.
    @Sendable static func token(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let params = request.params
        guard let grantType = params.string("grant_type"), let clientID = params.string("client_id"),
            let secret = params.string("client_secret")
        else {
            return OAuthFailure(
                status: 400, error: "invalid_request",
                description: "grant_type, client_id and client_secret are required"
            ).response
        }
        let asked = API.OAuth.TokenParams(
            grantType: grantType, clientId: clientID, clientSecret: secret, scope: params.string("scope"),
            username: params.string("username"), password: params.string("password"), code: params.string("code"),
            redirectUri: params.string("redirect_uri"))
        let granted: API.OAuth.Token
        do {
            granted = try await caller.call(API.OAuth.token, asked)
        } catch {
            return try OAuthFailure(error).answer()
        }
        return try OAuthJSON.response(
            TokenAnswer(
                accessToken: granted.accessToken, tokenType: granted.tokenType, scope: granted.scope,
                createdAt: Int(granted.createdAt.timeIntervalSince1970)))
    }

    /// `POST /oauth/revoke`: `{}` whether or not the token was live, as RFC 7009 says.
    @Sendable static func revoke(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let params = request.params
        guard let clientID = params.string("client_id"), let secret = params.string("client_secret"),
            let token = params.string("token")
        else {
            return OAuthFailure(
                status: 400, error: "invalid_request", description: "client_id, client_secret and token are required"
            ).response
        }
        do {
            _ = try await caller.call(
                API.OAuth.revoke, API.OAuth.RevokeParams(clientId: clientID, clientSecret: secret, token: token))
            return MastodonResponse(status: 200, headers: [], body: Array("{}".utf8))
        } catch {
            return try OAuthFailure(error).answer()
        }
    }

    /// `GET /oauth/authorize`: a short page, as no password form is served over HTTP; the code comes from twctl,
    /// logged in over the daemon's socket.
    @Sendable static func authorizePage(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let clientID = request.params.string("client_id").map { $0.filter { $0.isLetter || $0.isNumber || $0 == "_" } }
        var command = "twctl oauth authorize " + ((clientID?.isEmpty ?? true) ? "CLIENT_ID" : clientID ?? "")
        if let scope = request.params.string("scope"), !scope.isEmpty,
            OAuthScopesText.isPlain(scope)
        {
            command += " --scope \"\(scope)\""
        }
        let page = """
            twitterd does not take passwords over HTTP. To authorize this app, run, logged in to twitterd:

                \(command)

            and paste the code it prints into the app.

            """
        return MastodonResponse(
            status: 200, headers: [MastodonHeader(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: Array(page.utf8))
    }
}

/// Scope text safe to repeat inside a quoted shell argument on the page.
enum OAuthScopesText {
    static func isPlain(_ text: String) -> Bool {
        text.count <= 300 && text.allSatisfy { $0.isLetter || $0 == ":" || $0 == " " || $0 == "+" }
    }
}

/// `/oauth/token`'s answer.
struct TokenAnswer: Encodable {
    var accessToken: String
    var tokenType: String
    var scope: String
    var createdAt: Int

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", scope, createdAt = "created_at"
    }
}
