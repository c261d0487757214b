import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `tokens.*`: personal access tokens for scripts. The secret is shown once, by tokens.create.
struct TokenMethods: MethodGroup {
    let auth: AuthServices

    static let nameRule = Validator<API.Tokens.CreateParams>.field(
        \.name, "name",
        FreeText.validator(
            "Name", allowsNewlines: false,
            length: .length(1...64, tooShort: "Name can not be empty", tooLong: "Name is at most 64 characters"))
    )

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Tokens.create, in: .loggedIn,
            { [auth] (params: API.Tokens.CreateParams, context) in
                let login = context.login
                try Self.nameRule.validate(params)
                // A token never mints a stronger one: a personal token's login can not mint at all, and any other
                // login confirms with the password (a stolen session is not enough), counted as logins are.
                guard !login.restsOnPersonalToken else {
                    throw TwitterError(
                        .forbidden, "A personal token's login can not create tokens; log in with the password")
                }
                guard
                    try await auth.confirmPassword(
                        params.password, of: login.userID, peer: context.session.peer, field: "password") == .confirmed
                else {
                    throw TwitterError(.forbidden, "An account without a password can not create tokens")
                }
                let (record, secret) = try await auth.tokens.createPersonalToken(
                    userID: login.userID, name: params.name, expiresInDays: params.expiresInDays
                )
                return API.Tokens.CreatedToken(
                    id: record.id, token: secret, name: record.name, expiresAt: record.expiresAt)
            })
        router.register(
            API.Tokens.list, in: .loggedIn,
            { [auth] (_: NoParams, context) in
                let login = context.login
                return try await auth.tokens.personalTokens(userID: login.userID).map { record in
                    API.Tokens.TokenSummary(
                        id: record.id, name: record.name, createdAt: record.createdAt, expiresAt: record.expiresAt,
                        lastUsedAt: record.lastUsedAt, appId: record.appID, scopes: record.scopes?.text
                    )
                }
            })
        router.register(
            API.Tokens.revoke, in: .loggedIn,
            { [auth] (params: API.Tokens.RevokeParams, context) in
                let login = context.login
                guard try await auth.tokens.revokeToken(id: params.id, userID: login.userID) else {
                    throw TwitterError.notFound("Token \(params.id)")
                }
                auth.liveLogins.revoke(
                    .token(id: params.id, userID: login.userID, reason: .tokenRevoked), requester: context.session)
                return API.Tokens.Revoked(revoked: true)
            })
    }
}
