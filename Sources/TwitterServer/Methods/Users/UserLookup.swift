import TwitterAPI
import TwitterCore

/// Turns the usernames in params into account ids, with the one -32004 every method answers for a stranger.
struct UserLookup: Sendable {
    let users: any UserStoring

    /// The id of `username`'s account; `.notFound` when there is none.
    func id(of username: String) async throws -> Int64 {
        guard let user = try await users.user(username: username) else {
            throw TwitterError.notFound("User \(username)")
        }
        return user.id
    }

    /// The id of `username`'s account when a username is given.
    func id(ofOptional username: String?) async throws -> Int64? {
        guard let username else { return nil }
        return try await id(of: username)
    }
}

/// A page by cursor as params give it: `limit` (checked by the schema) and the opaque `cursor` of the last page.
enum PageCursor {
    /// The request for these params, `size` filling in an absent `limit`; a cursor that no page gave is -32602
    /// naming `cursor`.
    static func request(_ size: API.PageSize, limit: Int?, cursor: String?) throws -> PageRequest {
        var before: Int64?
        if let cursor {
            guard let position = Int64(cursor), position > 0 else {
                throw TwitterError.invalidFields(["cursor": "is not the nextCursor of a page"])
            }
            before = position
        }
        return PageRequest(limit: size.limit(limit), before: before)
    }
}

extension API.Users.UserPage {
    /// A page of people as the methods answer it, with the `nextCursor` of the page after it.
    init(_ page: UserPage) {
        self.init(users: page.users, nextCursor: page.next.map(String.init))
    }
}
