import Foundation
import JSONRPC
import TwitterCore

/// `tokens.*`: personal access tokens for scripts. The secret is shown once, by tokens.create.
struct TokenMethods: MethodGroup {
    let tokens: any PersonalTokenManaging
    let liveLogins: LiveLogins

    struct CreateParams: Decodable, Sendable {
        var name: String
        var expiresInDays: Int?
    }

    struct RevokeParams: Decodable, Sendable {
        var id: Int64
    }

    struct CreatedToken: Encodable {
        let id: Int64
        let token: String
        let name: String
        let expiresAt: Date?

        enum CodingKeys: String, CodingKey { case id, token, name, expiresAt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(token, forKey: .token)
            try container.encode(name, forKey: .name)
            try container.encode(expiresAt, forKey: .expiresAt)
        }
    }

    struct TokenView: Encodable {
        let id: Int64
        let name: String
        let createdAt: Date
        let expiresAt: Date?
        let lastUsedAt: Date?

        enum CodingKeys: String, CodingKey { case id, name, createdAt, expiresAt, lastUsedAt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
        }
    }

    struct Revoked: Encodable {
        let revoked: Bool
    }

    static let nameRule = Validator<CreateParams>.field(
        \.name, "name",
        Validator<String>.length(1...64, tooShort: "Name can not be empty", tooLong: "Name is at most 64 characters")
    )

    func register(in router: inout Router<RequestContext>) {
        router.register(
            Self.create,
            .awaited { [tokens] (params: CreateParams, context) in
                let login = try context.session.requireLogin()
                try Self.nameRule.validate(params)
                let (record, secret) = try await tokens.createPersonalToken(
                    userID: login.userID, name: params.name, expiresInDays: params.expiresInDays
                )
                return CreatedToken(id: record.id, token: secret, name: record.name, expiresAt: record.expiresAt)
            })
        router.register(
            Self.list,
            .awaited { [tokens] (_: NoParams, context) in
                let login = try context.session.requireLogin()
                return try await tokens.personalTokens(userID: login.userID).map { record in
                    TokenView(
                        id: record.id, name: record.name, createdAt: record.createdAt, expiresAt: record.expiresAt,
                        lastUsedAt: record.lastUsedAt
                    )
                }
            })
        router.register(
            Self.revoke,
            .awaited { [tokens, liveLogins] (params: RevokeParams, context) in
                let login = try context.session.requireLogin()
                guard try await tokens.revokeToken(id: params.id, userID: login.userID) else {
                    throw TwitterError.notFound("Token \(params.id)")
                }
                liveLogins.revoke(
                    .token(id: params.id, userID: login.userID, reason: .tokenRevoked), requester: context.session)
                return Revoked(revoked: true)
            })
    }

    static let create = MethodDescriptor(
        "tokens.create", summary: "Creates a personal access token (twp_…); the secret is shown only in this answer.",
        params: [
            Property("name", .string("A name to recognise it by, 1 to 64 characters."), required: true),
            Property("expiresInDays", .integer("Days until it expires; never when absent.", minimum: 1, maximum: 3650)),
        ],
        result: .object(
            [
                Property("id", .integer(), required: true),
                Property("token", .string("The secret, shown once."), required: true),
                Property("name", .string(), required: true),
                Property("expiresAt", Schema.timestamp().orNull(), required: true),
            ], title: "CreatedToken")
    )

    static let list = MethodDescriptor(
        "tokens.list", summary: "The account's live personal access tokens, without their secrets.",
        result: .array(
            of: .object(
                [
                    Property("id", .integer(), required: true),
                    Property("name", .string(), required: true),
                    Property("createdAt", .timestamp(), required: true),
                    Property("expiresAt", Schema.timestamp().orNull(), required: true),
                    Property("lastUsedAt", Schema.timestamp().orNull(), required: true),
                ], title: "TokenSummary"))
    )

    static let revoke = MethodDescriptor(
        "tokens.revoke", summary: "Revokes a personal access token or session of the account.",
        params: [Property("id", .integer("The token's id."), required: true)],
        result: .object([Property("revoked", .boolean(), required: true)]), positional: true,
        errors: ["not_found"]
    )
}
