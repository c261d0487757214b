import JSONRPC

extension TweetMethods {
    static let tweet = Schema.object(
        [
            Property("id", .integer("The tweet's id; larger is newer."), required: true),
            Property(
                "author",
                .object(
                    [
                        Property("id", .integer(), required: true),
                        Property("username", .string(), required: true),
                    ], title: "Author"), required: true),
            Property("text", .string("1 to 140 characters."), required: true),
            Property("createdAt", .timestamp(), required: true),
        ], title: "Tweet"
    )

    static let post = MethodDescriptor(
        "tweets.post", summary: "Posts a tweet; durable when answered.",
        params: [
            Property(
                "text", .string("Trimmed and NFC-normalised; 1 to 140 characters; no control characters but newline."),
                required: true),
            Property(
                "idempotencyKey", .string("Posting again with the same key within 24 hours returns the first tweet.")),
        ],
        result: tweet, positional: true, errors: ["invalid_params"]
    )

    static let fetch = MethodDescriptor(
        "tweets.fetch",
        summary: "Tweets, newest first: the whole feed or one author's, newer than sinceId, older than maxId.",
        params: [
            Property("sinceId", .integer("Only tweets newer than this id (pull to refresh).", minimum: 0)),
            Property("maxId", .integer("Only tweets older than this id (paging back).", minimum: 0)),
            Property("limit", .integer("How many, 1 to 200; 20 when absent.", minimum: 1, maximum: 200)),
            Property("author", .string("Only this username's tweets.")),
        ],
        result: .object(
            [
                Property("tweets", .array(of: tweet), required: true),
                Property("newestId", Schema.integer().orNull(), required: true),
                Property("oldestId", Schema.integer().orNull(), required: true),
            ], title: "TweetPage"),
        errors: ["invalid_params", "not_found"]
    )

    static let get = MethodDescriptor(
        "tweets.get", summary: "One tweet by id.", params: [Property("id", .integer(), required: true)],
        result: tweet, positional: true, errors: ["not_found"]
    )

    static let delete = MethodDescriptor(
        "tweets.delete", summary: "Deletes one of your own tweets.",
        params: [Property("id", .integer(), required: true)],
        result: .object([Property("deleted", .boolean(), required: true)]), positional: true,
        errors: ["forbidden", "not_found"]
    )

    static let subscribe = MethodDescriptor(
        "tweets.subscribe",
        summary: "Streams tweets.new and tweets.deleted notifications on this connection, after this answer.",
        params: [
            Property("author", .string("Only this username's tweets.")),
            Property(
                "sinceId", .integer("First send the tweets newer than this id, so nothing is missed.", minimum: 0)),
        ],
        result: .object([Property("subscription", .integer("The id notifications carry."), required: true)]),
        errors: ["not_found", "unavailable"]
    )

    static let unsubscribe = MethodDescriptor(
        "tweets.unsubscribe", summary: "Ends a subscription of this connection.",
        params: [Property("subscription", .integer(), required: true)],
        result: .object([Property("unsubscribed", .boolean(), required: true)]), positional: true,
        errors: ["not_found"]
    )
}
