import TwitterCore
import TwitterRules

/// The facts every interaction with a tweet reads: where it goes (a repost's original), its author, and the
/// blocks between the one acting and the authors concerned. What to do is `TwitterRules`' decision.
public enum Interactions {
    /// The accounts among `candidates` that block `account` or that it blocks; no query for none.
    public static func blocked(_ connection: any SQLConnection, with account: Int64, among candidates: [Int64])
        async throws -> Set<Int64>
    {
        guard !candidates.isEmpty else { return [] }
        return Set(try await connection.values(SQLQuery(Blocked.self, account, candidates), as: Int64.self))
    }

    private enum Blocked: SQLText {
        static let sql: SQLQuery = """
            SELECT blocked_id FROM blocks WHERE blocker_id = \(param: 1) AND blocked_id \(isInParam: 2)
            UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(param: 1) AND blocker_id \(isInParam: 2)
            """
    }

    /// The tweet a reply, like or repost of `id` goes to (the original, for a repost) and its author. `.notFound`
    /// when it is missing, and, for `actor`, when `TweetVisibility` hides it across a block with the author of
    /// the tweet named or of its original: the facts are read in the write's transaction, so a block committed
    /// just before is seen.
    public static func target(_ connection: any SQLConnection, of id: Int64, for actor: Int64?) async throws
        -> (id: Int64, author: Tweet.Author)
    {
        guard let target = try await TweetRows.target(connection, of: id),
            let author = try await author(connection, of: target)
        else { throw TwitterError.notFound("Tweet \(id)") }
        guard let actor else { return (target, author) }
        let named = target == id ? author.id : try await self.author(connection, of: id)?.id ?? author.id
        try TweetVisibility(try await blocks(connection, of: actor, among: [named, author.id]))
            .requireAccess(toTweet: id, author: named, originalAuthor: author.id)
        return (target, author)
    }

    /// The blocks between `actor` and `accounts`, either way, as `actor`'s hidden accounts.
    static func blocks(_ connection: any SQLConnection, of actor: Int64, among accounts: [Int64]) async throws
        -> HiddenAccounts
    {
        var hidden = HiddenAccounts()
        for other in Set(accounts) where other != actor {
            switch try await Blocks.blocker(connection, between: actor, and: other) {
            case actor?: hidden.blocking.insert(other)
            case .some: hidden.blockedBy.insert(other)
            case nil: break
            }
        }
        return hidden
    }

    /// The author of tweet `id`.
    public static func author(_ connection: any SQLConnection, of id: Int64) async throws -> Tweet.Author? {
        try await connection.firstRow(SQLQuery(Author.self, id)).map {
            Tweet.Author(id: try $0.column("id"), username: try $0.column("username"))
        }
    }

    private enum Author: SQLText {
        static let sql: SQLQuery =
            "SELECT users.id, users.username FROM tweets JOIN users ON users.id = tweets.author_id WHERE tweets.id = \(param: 1)"
    }
}
