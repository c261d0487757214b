import GRDB
import TwitterCore

/// One page of people from a relationship table (follows, likes), newest relationship first.
enum UserPageQuery {
    static func fetch(
        _ db: Database, relationshipTable table: String, ownerColumn: String, personColumn: String, owner: Int64,
        page: PageRequest
    ) throws -> UserPage {
        // Hidden ids are numbers, written into the SQL like `TweetRows.hidingClause` does.
        let hiding =
            page.hiding.isEmpty
            ? ""
            : " AND relationship.\(personColumn) NOT IN (\(page.hiding.sorted().map(String.init).joined(separator: ",")))"
        let sql = """
            SELECT relationship.id AS position, users.username, users.first_name, users.last_name
            FROM \(table) AS relationship JOIN users ON users.id = relationship.\(personColumn)
            WHERE relationship.\(ownerColumn) = ? AND relationship.id < ?\(hiding) AND users.suspended_at IS NULL
            ORDER BY relationship.id DESC LIMIT ?
            """
        // One more than asked: whether it exists says if there is a next page.
        let arguments: StatementArguments = [owner, page.before ?? Int64.max, page.limit + 1]
        let rows = try Row.fetchAll(
            page.hiding.isEmpty ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql), arguments: arguments)
        let shown = rows.prefix(page.limit)
        return UserPage(
            users: shown.map {
                UserSummary(username: $0["username"], firstName: $0["first_name"], lastName: $0["last_name"])
            },
            next: rows.count > page.limit ? shown.last?["position"] : nil)
    }
}
