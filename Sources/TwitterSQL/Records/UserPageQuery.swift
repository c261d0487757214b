import Foundation
import TwitterCore

/// One page of people from a relationship table (follows, mutes, blocks, likes, list memberships), newest
/// relationship first, in one query walking the table's (owner, id) index back from the cursor.
enum UserPageQuery {
    /// `fetch`'s page, read on its own.
    static func read(_ relationship: Relationship, from owner: Int64, page: PageRequest, on database: ObservedDatabase)
        async throws -> UserPage
    {
        try await database.read { connection in try await fetch(connection, relationship, from: owner, page: page) }
    }

    /// The page of the accounts `relationship` points at from `owner`: read `reversed`, the accounts that hold
    /// it to `owner` (its followers, a tweet's likers). Suspended accounts and `page.hiding` are left out.
    static func fetch(
        _ connection: any SQLConnection, _ relationship: Relationship, from owner: Int64, page: PageRequest
    ) async throws -> UserPage {
        var conditions: [SQLQuery] = [
            "relationship.\(unescaped: relationship.owner) = \(owner)",
            "relationship.id < \(page.before ?? Int64.max)", "users.suspended_at IS NULL",
        ]
        if !page.hiding.isEmpty {
            conditions.append("NOT relationship.\(unescaped: relationship.target) \(isIn: page.hiding.sorted())")
        }
        // One more than asked: whether it exists says if there is a next page.
        let query: SQLQuery = """
            SELECT relationship.id AS position, users.username, users.first_name, users.last_name
            FROM \(unescaped: relationship.table) AS relationship
                JOIN users ON users.id = relationship.\(unescaped: relationship.target)
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY relationship.id DESC LIMIT \(page.limit + 1)
            """
        let rows = try await connection.rows(query)
        let shown = rows.prefix(page.limit)
        return UserPage(
            users: try shown.map {
                UserSummary(
                    username: try $0.column("username"), firstName: try $0.column("first_name"),
                    lastName: try $0.column("last_name"))
            },
            next: rows.count > page.limit ? try shown.last?.column("position", as: Int64.self) : nil)
    }
}
