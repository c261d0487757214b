/// What one reader may see of tweets and act on: the one visibility policy. The server's `TweetAccess` applies
/// it to every method that names or lists a tweet, and the stores apply it inside the transactions of the writes
/// that name one (a reply, a repost, a like), from the same facts read there.
///
/// Two rules, each about the tweet's author and, for a repost, its original's author as much:
///
/// - **By id** (`tweets.get`, `tweets.thread`, likes, replies, reposts, reports, `account.export`): a block
///   either way between the reader and either author makes the tweet as if absent (-32004). A mute does not.
/// - **In lists** (timelines, tags, search, live streams): a mute hides the tweet too.
///
/// Suspended accounts' tweets and deleted tweets never reach it: every store read leaves them out already.
public struct TweetVisibility: Sendable, Equatable {
    /// The facts: whom the reader mutes, blocks and is blocked by.
    public var hidden: HiddenAccounts

    /// The policy for a reader who hides `hidden`.
    public init(_ hidden: HiddenAccounts = HiddenAccounts()) {
        self.hidden = hidden
    }

    /// The accounts lists leave out for the reader, with the reposts of their tweets; also the people left out
    /// of people lists and notifications.
    public var hiding: Set<Int64> { hidden.all }

    /// Whether `accountID` is one the reader's lists, people lists and notifications leave out: muted, blocked,
    /// or blocking the reader.
    public func hides(_ accountID: Int64) -> Bool {
        hidden.muted.contains(accountID) || isBlocked(accountID)
    }

    /// Whether a block stands between the reader and `accountID`, either way.
    public func isBlocked(_ accountID: Int64) -> Bool {
        hidden.blocking.contains(accountID) || hidden.blockedBy.contains(accountID)
    }

    /// Whether the reader may see, by its id, a tweet by `author` (reposting one by `originalAuthor`), and act on
    /// it.
    public func allowsAccess(author: Int64, originalAuthor: Int64? = nil) -> Bool {
        !isBlocked(author) && !(originalAuthor.map(isBlocked) ?? false)
    }

    /// Whether the reader may see `tweet` by its id, and act on it.
    public func allowsAccess(to tweet: Tweet) -> Bool {
        allowsAccess(author: tweet.author.id, originalAuthor: tweet.repostOf?.author.id)
    }

    /// `tweet` when the reader may see it; `.notFound` naming `id` when it is missing or hidden by a block, so the
    /// answer is the same either way.
    public func accessible(_ tweet: Tweet?, id: Int64) throws -> Tweet {
        guard let tweet, allowsAccess(to: tweet) else { throw TwitterError.notFound("Tweet \(id)") }
        return tweet
    }

    /// `.notFound` naming `id` when the reader may not act on a tweet by `author` (reposting one by
    /// `originalAuthor`): what a store's write transaction asks, with the facts it read.
    public func requireAccess(toTweet id: Int64, author: Int64, originalAuthor: Int64? = nil) throws {
        guard allowsAccess(author: author, originalAuthor: originalAuthor) else {
            throw TwitterError.notFound("Tweet \(id)")
        }
    }

    /// Whether `tweet` shows in the reader's lists.
    public func lists(_ tweet: Tweet) -> Bool {
        guard !hidden.isEmpty else { return true }
        let hiding = self.hiding
        return !hiding.contains(tweet.author.id) && !(tweet.repostOf.map { hiding.contains($0.author.id) } ?? false)
    }

    /// The tweets of `tweets` that show in the reader's lists, in order.
    public func listed(_ tweets: [Tweet]) -> [Tweet] {
        hidden.isEmpty ? tweets : tweets.filter(lists)
    }

    /// A thread as the reader may see it: nil when its tweet may not be seen by id (as if it did not exist);
    /// the tweets above or below it of accounts the reader hides become placeholders, like deleted tweets, so the
    /// replies to them keep their place.
    public func thread(_ rows: ThreadRows) -> ThreadRows? {
        guard !hidden.isEmpty else { return rows }
        guard allowsAccess(to: rows.tweet) else { return nil }
        let hiding = self.hiding
        func placeholder(_ entry: ThreadEntry) -> ThreadEntry {
            guard case .tweet(let tweet) = entry, hiding.contains(tweet.author.id) else { return entry }
            return .deleted(id: tweet.id, inReplyToID: tweet.inReplyToID)
        }
        var shown = rows
        shown.ancestors = rows.ancestors.map(placeholder)
        shown.descendants = rows.descendants.map(placeholder)
        return shown
    }

    /// One of the reader's own tweets as its archive holds it: a repost of a tweet the reader may not see keeps
    /// its place with the original marked unavailable, so the archive carries none of its text.
    public func archived(_ tweet: Tweet) -> ArchivedTweet {
        guard let original = tweet.repostOf, !allowsAccess(author: original.author.id) else {
            return ArchivedTweet(tweet)
        }
        var repost = tweet
        repost.repostOf = nil
        return ArchivedTweet(repost, unavailableOriginalID: original.id)
    }
}

extension TweetVisibility {
    /// Whether the reader's live stream tells of the deletion of a tweet by `authorID`: a hidden account's tweets
    /// were never shown, so neither is their going.
    public func listsDeletion(by authorID: Int64) -> Bool {
        !hides(authorID)
    }

    /// Whether the reader may know list `ownerID`'s list: its own always; someone else's while it is public and no
    /// block stands between the reader and the owner. A mute does not hide a list.
    public func allowsList(ownedBy ownerID: Int64, isPrivate: Bool, reader: Int64) -> Bool {
        ownerID == reader || (!isPrivate && !isBlocked(ownerID))
    }

    /// Whether `notification` reaches the reader: none from an account it hides, except a report, which the
    /// admins see whoever made it (moderation must see what a blocker reports).
    public func shows(_ notification: ActivityNotification) -> Bool {
        !notification.type.isHiddenWithItsActor || !hides(notification.from.id)
    }

    /// The notifications of `notifications` that reach the reader, in order.
    public func shown(_ notifications: [ActivityNotification]) -> [ActivityNotification] {
        hidden.isEmpty ? notifications : notifications.filter(shows)
    }
}

extension TweetVisibility {
    /// The policy of `actor` toward `other` alone, from who blocks whom between them (`blocker`, nil for no
    /// block): what a store's transaction reads before a write.
    public static func between(_ actor: Int64, and other: Int64, blocker: Int64?) -> TweetVisibility {
        guard let blocker, actor != other else { return TweetVisibility() }
        return TweetVisibility(
            blocker == actor ? HiddenAccounts(blocking: [other]) : HiddenAccounts(blockedBy: [other]))
    }
}
