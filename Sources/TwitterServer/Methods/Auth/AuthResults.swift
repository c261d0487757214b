import Foundation
import JSONRPC
import TwitterCore

/// The session part of a login answer.
struct SessionView: Encodable {
    let token: String
    let expiresAt: Date?

    init(_ session: IssuedSession) {
        token = session.token
        expiresAt = session.expiresAt
    }

    enum CodingKeys: String, CodingKey { case token, expiresAt }

    /// `expiresAt` is always present, null for a token that never expires.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(expiresAt, forKey: .expiresAt)
    }
}

/// `{user, session}`: the answer to signup and login.
struct LoginResult: Encodable {
    let user: User
    let session: SessionView
}

/// The schemas of the auth answers, shared by the method descriptors.
enum AuthSchemas {
    static let user = Schema.object(
        [
            Property("id", .integer("The account id."), required: true),
            Property("username", .string("The public handle."), required: true),
            Property("email", .string("The e-mail address.", format: "email"), required: true),
            Property("createdAt", .timestamp("When the account was made."), required: true),
        ], "The logged-in account.", title: "User"
    )

    static let session = Schema.object(
        [
            Property(
                "token", .string("The session token (tws_…), shown once; resume with provider \"token\"."),
                required: true),
            Property("expiresAt", Schema.timestamp("When it expires unless used.").orNull(), required: true),
        ], title: "Session"
    )

    static let login = Schema.object(
        [Property("user", user, required: true), Property("session", session, required: true)], title: "LoginResult"
    )
}
