import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

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

    /// One tweet as people read it: author and age on one line, the text wrapped below.
    func tweet(_ tweet: Tweet, now: Date = Date()) {
        let age = RelativeTime.since(tweet.createdAt, now: now)
        print("\(Terminal.bold("@" + tweet.author.username)) \(Terminal.dim("· \(age) · #\(tweet.id)"))")
        for line in TextWrap.wrap(tweet.text, width: Terminal.width - 2) {
            print("  " + line)
        }
    }

    /// An error from the daemon, with each failing field on its own line.
    static func printError(_ error: RPCError) {
        var text = "twctl: \(Terminal.red(error.message))\n"
        if case .object(let fields)? = error.data["fields"] {
            for (field, message) in fields.sorted(by: { $0.key < $1.key }) {
                text += "  \(field): \(message.stringValue ?? message.serialized)\n"
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
