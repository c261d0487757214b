import Foundation
import TwitterCore

/// One page of people from a relationship table (follows, mutes, blocks, likes), newest relationship first, in
/// one query walking the table's (owner, id) index back from the cursor.
public enum UserPageQuery {
    /// The page of the people in `personColumn` of `table` whose `ownerColumn` is `owner`. The table and
    /// columns are the callers' own names, never a request's; suspended accounts and `page.hiding` are left out.
    public static func fetch(
        _ connection: any SQLConnection, relationshipTable table: String, ownerColumn: String, personColumn: String,
        owner: Int64, page: PageRequest
    ) async throws -> UserPage {
        var query = SQLQuery()
        var conditions = [
            "relationship.\(ownerColumn) = \(query.bind(owner))",
            "relationship.id < \(query.bind(page.before ?? Int64.max))", "users.suspended_at IS NULL",
        ]
        if !page.hiding.isEmpty {
            conditions.append("NOT relationship.\(personColumn) = ANY(\(query.bind(page.hiding.sorted())))")
        }
        // One more than asked: whether it exists says if there is a next page.
        query.append(
            """
            SELECT relationship.id AS position, users.username, users.first_name, users.last_name
            FROM \(table) AS relationship JOIN users ON users.id = relationship.\(personColumn)
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY relationship.id DESC LIMIT \(query.bind(page.limit + 1))
            """)
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
