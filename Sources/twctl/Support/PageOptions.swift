import ArgumentParser
import TwitterAPI

/// The range check of a numeric option, worded the same for every command.
enum Bounds {
    /// A usage error `--limit must be between 1 and 200.` when `value` is outside `1...maximum`.
    static func check(_ value: Int, upTo maximum: Int, option: String = "--limit") throws {
        guard (1...maximum).contains(value) else {
            throw ValidationError("\(option) must be between 1 and \(maximum).")
        }
    }
}

/// `--before` and `--limit`: a page of tweets, newest first, paged back by id (`twctl tag`, `list show`).
struct OlderTweets: ParsableArguments {
    @Option(help: "Only tweets older than this id (page back).")
    var before: Int?

    @Option(help: "How many, 1 to 200.")
    var limit = 20

    /// `--before` as the API's `maxId`.
    var maxID: Int64? { before.map(Int64.init) }

    func validate() throws {
        try Bounds.check(limit, upTo: 200)
    }
}

/// `--since`, `--before` and `--limit`: a page of tweets that can also be refreshed (`twctl feed`, `timeline`).
struct TweetRange: ParsableArguments {
    @Option(help: "Only tweets newer than this id.")
    var since: Int?

    @OptionGroup var older: OlderTweets

    /// `--since` as the API's `sinceId`.
    var sinceID: Int64? { since.map(Int64.init) }
}

/// `--limit` and `--cursor` for a page that says how to read the next one (`twctl bookmarks`, `quotes`).
struct CursorPage: ParsableArguments {
    @Option(help: "How many, 1 to 200.")
    var limit = 20

    @Option(help: "The cursor a previous page printed, to read the next one.")
    var cursor: String?

    /// The page as the methods take it.
    var params: API.PageParams { .init(limit: limit, cursor: cursor) }

    func validate() throws {
        try Bounds.check(limit, upTo: 200)
    }
}
