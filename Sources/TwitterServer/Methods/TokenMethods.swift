import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `tokens.*`: personal access tokens for scripts. The secret is shown once, by tokens.create.
struct TokenMethods: MethodGroup {
    let tokens: any PersonalTokenManaging
    let liveLogins: LiveLogins

    static let nameRule = Validator<API.Tokens.CreateParams>.field(
        \.name, "name",
        Validator<String>.length(1...64, tooShort: "Name can not be empty", tooLong: "Name is at most 64 characters")
    )

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Tokens.create,
            .awaited { [tokens] (params: API.Tokens.CreateParams, context) in
                let login = try context.session.requireLogin()
                try Self.nameRule.validate(params)
                let (record, secret) = try await tokens.createPersonalToken(
                    userID: login.userID, name: params.name, expiresInDays: params.expiresInDays
                )
                return API.Tokens.CreatedToken(
                    id: record.id, token: secret, name: record.name, expiresAt: record.expiresAt)
            })
        router.register(
            API.Tokens.list,
            .awaited { [tokens] (_: NoParams, context) in
                let login = try context.session.requireLogin()
                return try await tokens.personalTokens(userID: login.userID).map { record in
                    API.Tokens.TokenSummary(
                        id: record.id, name: record.name, createdAt: record.createdAt, expiresAt: record.expiresAt,
                        lastUsedAt: record.lastUsedAt
                    )
                }
            })
        router.register(
            API.Tokens.revoke,
            .awaited { [tokens, liveLogins] (params: API.Tokens.RevokeParams, context) in
                let login = try context.session.requireLogin()
                guard try await tokens.revokeToken(id: params.id, userID: login.userID) else {
                    throw TwitterError.notFound("Token \(params.id)")
                }
                liveLogins.revoke(
                    .token(id: params.id, userID: login.userID, reason: .tokenRevoked), requester: context.session)
                return API.Tokens.Revoked(revoked: true)
            })
    }
}
