import JSONRPC

extension API {
    /// How many items a page of one kind may hold and holds when the params do not say, declared once: the method's
    /// `limit` schema and its handler both read it, so the documented default and the served one cannot drift.
    public struct PageSize: Sendable, Equatable {
        /// How many a page holds when `limit` is absent.
        public let whenAbsent: Int
        /// The largest `limit` the schema accepts.
        public let maximum: Int
        /// What is counted, when the description names it ("tags").
        let noun: String?

        init(whenAbsent: Int, maximum: Int, of noun: String? = nil) {
            self.whenAbsent = whenAbsent
            self.maximum = maximum
            self.noun = noun
        }

        /// The page size to serve for the params' `limit`: the schema has bounded it already, so only absence is
        /// filled in.
        public func limit(_ requested: Int?) -> Int {
            requested ?? whenAbsent
        }

        /// The `limit` param: an integer from 1 to `maximum`, its default in its description.
        public var property: Property {
            let what = noun.map { "How many \($0)" } ?? "How many"
            return Property(
                "limit", .integer("\(what), 1 to \(maximum); \(whenAbsent) when absent.", minimum: 1, maximum: maximum))
        }
    }
}

extension API.PageSize {
    /// Tweets and notifications by time: timelines, `tweets.fetch`, `tweets.quotes`, hashtags, bookmarks,
    /// `notifications.list`.
    public static let tweets = Self(whenAbsent: 20, maximum: 200)
    /// People, reports and audit entries by cursor: follows, likers, mutes, blocks, list members, admin lists.
    public static let people = Self(whenAbsent: 40, maximum: 200)
    /// A search's answers and `messages.conversations`.
    public static let search = Self(whenAbsent: 20, maximum: 100)
    /// `messages.list`: the messages of one conversation.
    public static let messages = Self(whenAbsent: 50, maximum: 200)
    /// `search.trending`: the hashtags most used lately.
    public static let tags = Self(whenAbsent: 10, maximum: 100, of: "tags")
}
