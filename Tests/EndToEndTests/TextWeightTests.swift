import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient

/// One account's texts against everyone else's pages (issue 48, item 1): a character that weighs 400 KB is refused
/// in every field, and pages filled with the heaviest items the rules allow still answer every reader, each item
/// within the weight docs/SECURITY.md derives ("The weight of a page"), so no page can reach the 8 MiB answer cap.
@Suite(.serialized) struct TextWeightTests {
    /// "a" and 200,000 U+0301: one character as grapheme clusters count, 400,001 bytes.
    static let heavy = "a" + String(repeating: "\u{301}", count: 200_000)

    /// The heaviest text of at most `characters` characters the rules allow, after `prefix`: as many characters as
    /// JSON escapes (`"` takes two bytes there), then one letter carrying combining accents up to 4 bytes a
    /// character (`x` composes with none of them, so NFC keeps every byte).
    static func heaviest(_ prefix: String, characters: Int) -> String {
        let quotes = characters - prefix.count - 1
        let accents = (4 * characters - prefix.utf8.count - quotes - 1) / 2
        return prefix + String(repeating: "\"", count: quotes) + "x" + String(repeating: "\u{301}", count: accents)
    }

    /// A tweet item's bound (docs/SECURITY.md): three tweets, each its text's JSON (twice 4 bytes a character),
    /// 16 bytes a character of entities and 512 of the rest, and 512 more.
    static let tweetItemBound = 3 * (2 * 560 + 2 + 16 * 140 + 512) + 512

    static let configuration = DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites

    @Test func heavyTweetsFromOneAccountLeaveEveryReadersPagesAnswering() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        let socket = daemon.socketPath
        try await RPCConnection.withConnection(socketPath: socket) { reader in
            try await reader.signUp(email: "reader@example.com", username: "reader")
            _ = try await reader.call("profile.update", ["messagesFrom": "everyone"])
        }
        let text = Self.heaviest("@reader http://x.io/w " + String(repeating: "#w ", count: 20), characters: 140)
        let (original, conversation) = try await RPCConnection.withConnection(socketPath: socket) {
            (heavy) async throws -> (Int64, Int64) in
            try await heavy.signUp(email: "heavy@example.com", username: "heavy")
            // What broke every reader's timeline on main: twenty characters of 400 KB.
            for _ in 0..<20 {
                let refused = try await heavy.callError("tweets.post", ["text": .string(Self.heavy)])
                #expect(
                    refused?.code == -32602 && refused?.data["fields"]?["text"] != nil, "\(String(describing: refused))"
                )
            }
            let posted = try await heavy.call("tweets.post", ["text": .string(text)])
            let original = try #require(Int64(json: posted["id"] ?? .null))
            for _ in 0..<100 {
                _ = try await heavy.call(
                    "tweets.post", ["text": .string(text), "quoteOf": .number(JSONNumber(Int(original)))])
            }
            let message = Self.heaviest("", characters: 1000)
            var conversation: Int64 = 0
            for _ in 0..<200 {
                let sent = try await heavy.call("messages.send", ["to": ["reader"], "text": .string(message)])
                conversation = try #require(Int64(json: sent["conversationId"] ?? .null))
            }
            return (original, conversation)
        }
        // An accomplice reposts every quote: a repost of a quote of a tweet is the heaviest item of all.
        try await RPCConnection.withConnection(socketPath: socket) { (helper) async throws in
            try await helper.signUp(email: "helper@example.com", username: "helper")
            let quotes = try await helper.call(
                "tweets.quotes", ["id": .number(JSONNumber(Int(original))), "limit": 200])["tweets"]
            guard case .array(let items)? = quotes else { throw TextWeightFailure.noPage("tweets.quotes") }
            #expect(items.count == 100)
            for item in items {
                _ = try await helper.call("tweets.repost", ["id": item["id"] ?? .null])
            }
        }
        try await RPCConnection.withConnection(socketPath: socket) { (reader) async throws in
            _ = try await reader.logIn(email: "reader@example.com")
            _ = try await reader.call("users.follow", ["username": "heavy"])
            _ = try await reader.call("users.follow", ["username": "helper"])
            // Each list: its method and params, the member holding the items, how many at least (a page shows an
            // original once, so the quotes' reposts stand for them only on the reposter's own timeline), and each
            // item's bound.
            let pages: [(String, JSONValue, String, Int, Int)] = [
                ("timeline.public", ["limit": 200], "tweets", 101, Self.tweetItemBound),
                ("timeline.home", ["limit": 200], "tweets", 101, Self.tweetItemBound),
                ("timeline.user", ["username": "helper", "limit": 200], "tweets", 100, Self.tweetItemBound),
                ("tweets.fetch", ["author": "heavy", "limit": 200], "tweets", 101, Self.tweetItemBound),
                (
                    "tweets.quotes", ["id": .number(JSONNumber(Int(original))), "limit": 200], "tweets", 100,
                    Self.tweetItemBound
                ),
                ("tags.tweets", ["tag": "w", "limit": 200], "tweets", 100, Self.tweetItemBound),
                ("notifications.list", ["limit": 200], "notifications", 100, Self.tweetItemBound + 512),
                (
                    "messages.list", ["conversationId": .number(JSONNumber(Int(conversation))), "limit": 200],
                    "messages", 200,
                    2 * 4000 + 2 + 512
                ),
                ("messages.conversations", ["limit": 100], "conversations", 1, 2 * 4000 + 2 + 50 * 512),
            ]
            for (method, params, member, count, bound) in pages {
                let answer = try await reader.call(method, params)
                guard case .array(let items)? = answer[member] else { throw TextWeightFailure.noPage(method) }
                #expect(items.count >= count, "\(method): \(items.count) items")
                for item in items {
                    let bytes = item.serialized.utf8.count
                    #expect(bytes <= bound, "\(method): an item of \(bytes) bytes, over its bound \(bound)")
                }
            }
        }
    }
}

enum TextWeightFailure: Error {
    case noPage(String)
}
