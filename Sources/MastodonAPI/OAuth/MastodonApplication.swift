import Foundation
import TwitterAPI

/// Mastodon's Application entity (https://docs.joinmastodon.org/entities/Application/): every documented field,
/// null where twitterd has no value (no push, so no `vapid_key`).
struct MastodonApplication: Encodable {
    var id: String
    var name: String
    var website: String?
    var scopes: [String]
    var redirectURI: String
    var redirectURIs: [String]
    var clientID: String?
    var clientSecret: String?

    init(_ app: API.OAuth.App) {
        id = String(app.id)
        name = app.name
        website = app.website
        scopes = app.scopes.split(separator: " ").map(String.init)
        redirectURIs = app.redirectUris
        redirectURI = app.redirectUris.joined(separator: "\n")
        clientID = app.clientId
        clientSecret = app.clientSecret
    }

    enum CodingKeys: String, CodingKey {
        case id, name, website, scopes, redirectURI = "redirect_uri", redirectURIs = "redirect_uris"
        case clientID = "client_id", clientSecret = "client_secret", vapidKey = "vapid_key"
        case clientSecretExpiresAt = "client_secret_expires_at"
    }

    /// Nulls written out, as clients read every field; the client's credentials only when known.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(website, forKey: .website)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(redirectURI, forKey: .redirectURI)
        try container.encode(redirectURIs, forKey: .redirectURIs)
        try container.encodeNil(forKey: .vapidKey)
        if let clientID { try container.encode(clientID, forKey: .clientID) }
        if let clientSecret {
            try container.encode(clientSecret, forKey: .clientSecret)
            try container.encode(0, forKey: .clientSecretExpiresAt)
        }
    }

    /// The entity as a 200 answer.
    func response() throws -> MastodonResponse {
        try OAuthJSON.response(self)
    }
}

/// JSON answers of the OAuth endpoints.
enum OAuthJSON {
    /// `value` as a 200 JSON answer.
    static func response(_ value: some Encodable, status: Int = 200) throws -> MastodonResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return MastodonResponse(status: status, headers: [], body: Array(try encoder.encode(value)))
    }
}
