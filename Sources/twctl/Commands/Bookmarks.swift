import ArgumentParser
import TwitterAPI

/// `twctl bookmark`.
struct Bookmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bookmark a tweet, privately (--remove takes the bookmark back).")

    @OptionGroup var options: GlobalOptions

    @OptionGroup var tweet: TweetTarget

    @Flag(help: "Take the bookmark back instead.")
    var remove = false

    func run() async throws {
        try await options.callAndPrint(remove ? API.Bookmarks.remove : API.Bookmarks.add, tweet.params) { _, output in
            output.note(remove ? "Took back the bookmark of #\(tweet.id)." : "Bookmarked #\(tweet.id).")
        }
    }
}

/// `twctl bookmarks`.
struct Bookmarks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Your bookmarks, newest bookmark first.")

    @OptionGroup var options: GlobalOptions

    @OptionGroup var page: CursorPage

    func run() async throws {
        try await options.callAndPrint(API.Bookmarks.list, page.params) { bookmarks, output in
            output.page(bookmarks.tweets)
            output.nextPage(bookmarks.nextCursor, hint: "More: twctl bookmarks --cursor")
        }
    }
}

/// `twctl pin`.
struct Pin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pin one of your own tweets to your profile (--remove unpins it).")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of your tweet to pin; none with --remove.")
    var id: Int?

    @Flag(help: "Unpin your pinned tweet instead.")
    var remove = false

    func validate() throws {
        guard remove == (id == nil) else { throw ValidationError("Give a tweet id to pin, or --remove alone.") }
    }

    func run() async throws {
        try await options.callAndPrint({ connection in
            if let id { return try await connection.answer(API.Profiles.pin, .init(id: Int64(id))) }
            return try await connection.answer(API.Profiles.unpin)
        }) { profile, output in
            output.note(profile.pinnedTweetId.map { "Pinned #\($0) to your profile." } ?? "Nothing is pinned now.")
        }
    }
}
