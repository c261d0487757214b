import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore
import TwitterTUI

/// Prints results for people, or raw JSON with --json, and errors to stderr.
struct Output {
    let options: GlobalOptions

    /// The raw result as one JSON line; used by every command under --json.
    func json(_ value: JSONValue) {
        print(value.serialized)
    }

    /// A line for people, left out under --quiet.
    func note(_ text: String) {
        if !options.quiet { print(text) }
    }

    /// One tweet as people read it: author, age, id and counts on one line, the text wrapped below; a repost
    /// says who reposted and shows the original; a quote shows the quoted tweet indented beneath its text (or
    /// that it is unavailable); `indent` nests a reply under its parent in a thread.
    func tweet(_ tweet: Tweet, now: Date = Date(), indent: Int = 0) {
        let pad = String(repeating: "  ", count: indent)
        guard let original = tweet.repostOf else {
            var about = "· \(HumanFormat.age(of: tweet.createdAt, now: now)) · #\(tweet.id)"
            if let parent = tweet.inReplyToID { about += " · reply to #\(parent)" }
            print(pad + "\(Terminal.bold("@" + tweet.author.username)) \(Terminal.dim(about))")
            let marked = Highlight.marks(of: tweet)
            for line in TextWrap.wrap(tweet.text, width: max(20, Terminal.width - 2 - pad.count)) {
                print(pad + "  " + Highlight.apply(marked, to: line))
            }
            if let quoted = tweet.quoted {
                switch quoted {
                case .tweet(let shown): self.tweet(shown, now: now, indent: indent + 2)
                case .unavailable: print(pad + "    " + Terminal.dim("[quoted tweet unavailable]"))
                }
            } else if let id = tweet.quoteOfID {
                print(pad + "    " + Terminal.dim("[quotes #\(id)]"))
            }
            print(pad + "  " + Terminal.dim(Self.counts(of: tweet)))
            return
        }
        let about = "reposted · \(HumanFormat.age(of: tweet.createdAt, now: now)) · #\(tweet.id)"
        print(pad + "\(Terminal.bold("@" + tweet.author.username)) \(Terminal.dim(about))")
        self.tweet(original, now: now, indent: indent + 1)
    }

    /// `3 likes · 1 repost · 2 replies`, with the reader's own like and repost marked, and `· 1 quote` when any.
    static func counts(of tweet: Tweet) -> String {
        let likes = counted(tweet.counts.likes, "like") + (tweet.likedByMe ? " (you)" : "")
        let reposts = counted(tweet.counts.reposts, "repost") + (tweet.repostedByMe ? " (you)" : "")
        let replies = counted(tweet.counts.replies, "reply")
        let quotes = tweet.counts.quotes > 0 ? " · " + counted(tweet.counts.quotes, "quote") : ""
        return "\(likes) · \(reposts) · \(replies)\(quotes)"
    }

    /// `1 like`, `2 likes`.
    static func counted(_ count: Int, _ noun: String) -> String {
        HumanFormat.counted(count, noun)
    }

    /// A page of tweets, oldest first so the newest ends up next to the prompt as in a chat.
    func page(_ tweets: [Tweet], empty: String = "No tweets.") {
        for tweet in tweets.reversed() { self.tweet(tweet) }
        if tweets.isEmpty { note(empty) }
    }

    /// One notification: who did what, and the tweet it is about; `•` marks an unread one.
    func notification(_ notification: ActivityNotification, now: Date = Date()) {
        let who = Terminal.bold("@" + notification.from.username)
        let what =
            switch notification.type {
            case .mention: "mentioned you"
            case .reply: "replied to you"
            case .follow: "followed you"
            case .like: "liked your tweet"
            case .repost: "reposted your tweet"
            case .quote: "quoted your tweet"
            case .adminReport: "filed report \(notification.reportID.map(String.init) ?? "?")"
            }
        let about = Terminal.dim("· \(HumanFormat.age(of: notification.createdAt, now: now)) · #\(notification.id)")
        print((notification.read ? "  " : "• ") + "\(who) \(what) \(about)")
        if let tweet = notification.tweet { self.tweet(tweet.repostOf ?? tweet, now: now, indent: 1) }
    }

    /// `3 unread notifications`.
    static func unread(_ count: Int) -> String {
        counted(count, "unread notification")
    }

    /// People, one a line: `@name  First Last`.
    func people(_ users: [UserSummary], empty: String) {
        for user in users { print(Self.person(user.username, firstName: user.firstName, lastName: user.lastName)) }
        if users.isEmpty { note(empty) }
    }

    /// `@name  First Last`, or `@name` alone for someone without a name; `style` dresses the `@name`.
    static func person(
        _ username: String, firstName: String, lastName: String, style: (String) -> String = { $0 }
    ) -> String {
        let name = "\(firstName) \(lastName)".trimmingCharacters(in: .whitespaces)
        return style("@" + username) + (name.isEmpty ? "" : "  \(name)")
    }

    /// A page of people, and how to read the next one.
    func people(_ page: API.Users.UserPage, empty: String) {
        people(page.users, empty: empty)
        nextPage(page.nextCursor)
    }

    /// Under a page, how to read the next one: `hint` and the cursor, when there is a next page.
    func nextPage(_ cursor: String?, hint: String = "more: --cursor") {
        if let cursor { note("\(hint) \(cursor)") }
    }

    /// An error from the daemon, with each failing field on its own line.
    static func printError(_ error: RPCError) {
        // Under --json the answer was read as sent: a message may quote another account's text (a suspension's
        // reason), shown here with its control characters visible.
        var text = "twctl: \(Terminal.red(VisibleText.shown(error.message)))\n"
        if case .object(let fields)? = error.data["fields"] {
            for (field, message) in fields.sorted(by: { $0.key < $1.key }) {
                text +=
                    "  \(VisibleText.shown(field)): \(VisibleText.shown(message.stringValue ?? message.serialized))\n"
            }
        }
        if let retry = error.data["retryAfter"]?.stringValue { text += "  retry in \(retry) s\n" }
        if let errorID = error.data["errorId"]?.stringValue {
            text += "  error id: \(errorID) (see the daemon's log)\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("twctl: \(message)\n".utf8))
    }
}

extension JSONValue {
    /// A string's text, or a number's text; nil for other values.
    var stringValue: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number.text
        default: nil
        }
    }
}
