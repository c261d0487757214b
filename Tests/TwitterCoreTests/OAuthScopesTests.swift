import Testing
import TwitterCore

/// Mastodon's scopes: a parent covers its children, `follow` its relationships, nothing else covers more.
struct OAuthScopesTests {
    @Test(arguments: [
        ("read", "read:statuses", true), ("read", "write:statuses", false), ("write", "write:favourites", true),
        ("read:statuses", "read:statuses", true), ("read:statuses", "read:notifications", false),
        ("follow", "write:follows", true), ("follow", "write:blocks", true), ("follow", "read:mutes", true),
        ("follow", "write:statuses", false), ("read write", "push", false), ("push", "push", true),
        ("profile", "profile", true), ("read", "profile", true), ("write", "profile", false),
        ("read:accounts", "profile", true), ("profile", "read:accounts", false),
    ])
    func aGrantCoversItsChildrenOnly(_ granted: String, _ required: String, _ covered: Bool) throws {
        #expect(try #require(OAuthScopes(parsing: granted)).covers(required) == covered)
    }

    @Test func parsingKnowsOnlyMastodonsScopesAndRepeatsTheAskedOrder() throws {
        #expect(OAuthScopes(parsing: "read write:statuses")?.text == "read write:statuses")
        #expect(OAuthScopes(parsing: "read+write+follow")?.names == ["read", "write", "follow"])
        #expect(OAuthScopes(parsing: "read admin:everything") == nil)
        #expect(OAuthScopes(parsing: "")?.isEmpty == true)
        #expect(OAuthScopes.repeated("read write follow push read") == "read write follow push")
        let app = try #require(OAuthScopes(parsing: "read write"))
        #expect(app.includes(try #require(OAuthScopes(parsing: "read:statuses write"))))
        #expect(!app.includes(try #require(OAuthScopes(parsing: "read follow"))))
    }
}
