extension API {
    /// The params of a page of one's own things, by cursor: `{limit, cursor}` (`bookmarks.list`,
    /// `messages.conversations`, `users.muted`, `users.blocked`, `admin.audit.list`). Each method's descriptor says
    /// its bounds and default limit.
    public struct PageParams: Codable, Sendable {
        /// How many; the method's default when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?

        private init(memberwise: Never) { switch memberwise {} }  // the public one: BuildTools/MemberwiseInits
    }

    /// The params of a page of what belongs to one thing, by cursor: `{id, limit, cursor}` (`tweets.likedBy`,
    /// `tweets.quotes`, `lists.members`). Each method's descriptor says its bounds and default limit.
    public struct IDPageParams: Codable, Sendable {
        /// The tweet or list the page is of.
        public var id: Int64
        /// How many; the method's default when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?

        private init(memberwise: Never) { switch memberwise {} }  // the public one: BuildTools/MemberwiseInits
    }
}
