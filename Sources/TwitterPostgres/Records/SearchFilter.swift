import TwitterCore
import TwitterSQL

/// What a tweet search requires besides its words: the author (`from:`), the tags, the reader's hidden
/// accounts and the authors' standing; and the text queries built from the words, every term a bound value.
struct SearchFilter {
    let authorID: Int64?
    let tags: [String]
    let hiding: Set<Int64>

    /// The filter of `query`, its author resolved to `authorID`, for a reader hiding `hiding`.
    init(_ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>) {
        self.authorID = authorID
        tags = query.tags
        self.hiding = hiding
    }

    /// The conditions on `tweet` (and its `original`, joined), their values bound. Suspended authors are left out
    /// here, before ranking, and not only by the joins that read the tweets: otherwise their matches took
    /// places in a page and were then dropped, leaving it short or empty.
    func conditions() -> SQLQuery {
        var conditions: [SQLQuery] = []
        if let authorID { conditions.append("tweets.author_id = \(authorID)") }
        for tag in tags {
            conditions.append("tweets.id IN (SELECT tweet_id FROM tweet_tags WHERE tag = \(tag))")
        }
        if let hidden = TweetRows.hidingClause(hiding) { conditions.append(hidden) }
        conditions.append(
            """
            \(AccountStanding.notSuspended("tweets.author_id")) AND (original.author_id IS NULL OR \
            \(AccountStanding.notSuspended("original.author_id")))
            """)
        return conditions.joined(separator: " AND ")
    }

    /// A scalar subquery of the tsquery matching every one of `terms` and none of `excluded`. Each term is a
    /// phrase query of its own bound text (so no character of it is tsquery syntax), split and folded like the
    /// indexed text (`twitterd_search_term`). A required term that leaves no lexeme
    /// makes the whole query NULL, which matches nothing: `&&` would otherwise drop it, and a query of
    /// exclusions alone matches nearly everything. As a subquery it is computed once, and the index scan can
    /// use it.
    static func tsquery(_ terms: [String], excluding excluded: [String] = []) -> SQLQuery {
        let required = terms.map { term -> SQLQuery in
            "(SELECT CASE WHEN numnode(term) > 0 THEN term END FROM \(phrase(term)) AS term)"
        }
        let refused = excluded.map { term -> SQLQuery in "!!\(phrase(term))" }
        return "SELECT \((required + refused).joined(separator: " && "))"
    }

    /// A scalar subquery of the tsquery matching any of `terms`.
    static func tsquery(anyOf terms: [String]) -> SQLQuery {
        "SELECT \(terms.map(phrase).joined(separator: " || "))"
    }

    /// The phrase query of one term.
    private static func phrase(_ term: String) -> SQLQuery {
        "twitterd_search_term(\(term))"
    }
}
