extension API {
    // @MemberwiseInit
    /// The params of a method on one thing by its id: a tweet, a list, a message.
    public struct IDParams: Codable, Sendable {
        /// The tweet's, list's or message's id.
        public var id: Int64
    }

    // @MemberwiseInit
    /// The answer of a delete that leaves nothing to show: `{"deleted": true}` (`tweets.delete`, `lists.delete`).
    public struct Deleted: Codable, Sendable, Equatable {
        /// Always true: the thing is gone.
        public var deleted: Bool
    }

    // @MemberwiseInit
    /// The params of a page of one's own things, by cursor: `{limit, cursor}` (`bookmarks.list`,
    /// `messages.conversations`, `users.muted`, `users.blocked`, `admin.audit.list`). Each method's descriptor says
    /// its bounds and default limit.
    public struct PageParams: Codable, Sendable {
        /// How many; the method's default when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?
    }

    // @MemberwiseInit
    /// The params of a page of what belongs to one thing, by cursor: `{id, limit, cursor}` (`tweets.likedBy`,
    /// `tweets.quotes`, `lists.members`). Each method's descriptor says its bounds and default limit.
    public struct IDPageParams: Codable, Sendable {
        /// The tweet or list the page is of.
        public var id: Int64
        /// How many; the method's default when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?
    }
}
