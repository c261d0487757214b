import Foundation
import JSONRPC
import TwitterCore

/// Values the entity tests write, and a way to compare JSON regardless of key order.
enum Fixtures {
    /// 2026-09-21T14:13:20.000Z.
    static let date = Date(timeIntervalSince1970: 1_790_000_000)

    /// A tweet by alice mentioning bob, with a tag, a link, a script tag, a line break and a paragraph.
    static let tweet = Tweet(
        id: 42, author: AccountName(id: 7, username: "alice"),
        text: "hi @bob <script>x</script> #Swift https://example.com/a?b=1&c=2\nline2\n\nend", createdAt: date,
        inReplyToID: 41, counts: TweetCounts(likes: 3, reposts: 2, replies: 1, quotes: 0), likedByMe: true,
        bookmarkedByMe: true,
        entities: TweetEntities(
            mentions: [.init(username: "bob", start: 3, end: 7)], hashtags: [.init(tag: "Swift", start: 27, end: 33)],
            urls: [.init(url: "https://example.com/a?b=1&c=2", start: 34, end: 63)]))

    static func parse(_ text: String) throws -> JSONValue {
        try JSONParser(maximumDepth: 512).parse(Array(text.utf8))
    }

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONParser(maximumDepth: 512).parse(bytes)
    }
}
