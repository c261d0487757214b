import ArgumentParser
import TwitterAPI

/// `twctl quotes`.
struct Quotes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tweets quoting a tweet, newest first.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The id of the tweet quoted.")
    var id: Int

    @OptionGroup var page: CursorPage

    func run() async throws {
        let params = API.Tweets.QuotesParams(id: Int64(id), limit: page.limit, cursor: page.cursor)
        try await options.callAndPrint(API.Tweets.quotes, params) { quotes, output in
            output.page(quotes.tweets, empty: "No quotes.")
            output.nextPage(quotes.nextCursor, hint: "More: twctl quotes \(id) --cursor")
        }
    }
}
