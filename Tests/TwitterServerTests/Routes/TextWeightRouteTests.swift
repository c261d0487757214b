import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Every text an account stores, tried with what the length in characters alone let through: one letter and
/// 200,000 combining accents, a single grapheme cluster of 400 KB, and the escapes that reached an admin's
/// terminal. Each is -32602 naming its field, and nothing is stored.
struct TextWeightRouteTests {
    /// "a" and 200,000 U+0301: one character as people count them, 400,001 bytes.
    static let heavy = "a" + String(repeating: "\u{301}", count: 200_000)
    /// OSC 52 (writes the terminal's clipboard) and CSI sequences that erase and climb lines.
    static let escapes = "spam \u{1B}]52;c;cm0gLXJmIH4K\u{07}\u{1B}[2K\u{1B}[1A"

    /// Each method and params that store a text, with the field -32602 must name.
    static func writes(_ text: String) -> [(method: String, params: JSONValue, field: String)] {
        let value = JSONValue.string(text)
        return [
            ("tweets.post", ["text": value], "text"),
            ("tweets.post", ["text": "ok", "idempotencyKey": value], "idempotencyKey"),
            ("messages.send", ["to": ["bob"], "text": value], "text"),
            ("profile.update", ["bio": value], "bio"),
            ("profile.update", ["firstName": value], "firstName"),
            ("profile.update", ["lastName": value], "lastName"),
            ("lists.create", ["name": value], "name"),
            ("lists.create", ["name": "ok", "description": value], "description"),
            ("reports.create", ["username": "bob", "reason": value], "reason"),
            ("tokens.create", ["name": value, "password": .string(InProcessDaemon.password)], "name"),
        ]
    }

    /// Each admin method that stores a text (shown to the account concerned, or in the audit log).
    static func adminWrites(_ text: String, report: Int64, tweet: Int64) -> [(String, JSONValue, String)] {
        let value = JSONValue.string(text)
        return [
            ("admin.users.suspend", ["username": "bob", "reason": value], "reason"),
            ("admin.tweets.delete", ["id": .number(JSONNumber(Int(tweet))), "reason": value], "reason"),
            ("admin.reports.resolve", ["id": .number(JSONNumber(Int(report))), "note": value], "note"),
        ]
    }

    @Test(arguments: [heavy, escapes])
    func everyStoredTextRefusesAHeavyCharacterAndEscapesNamingTheField(_ text: String) async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await bob.call(API.Profiles.update, .init(messagesFrom: .everyone))
        let tweet = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        let report = try await alice.call(API.Reports.create, .init(username: "bob", reason: "spam"))
        var refused: [(Caller, String, JSONValue, String)] = Self.writes(text).map { (alice, $0.0, $0.1, $0.2) }
        refused += Self.adminWrites(text, report: report.id, tweet: tweet.id).map { (admin, $0.0, $0.1, $0.2) }
        for (caller, method, params, field) in refused {
            let error = try await caller.refusal(method, params)
            #expect(error.code == -32602, "\(method) \(field)")
            #expect(error.data["fields"]?[field] != nil, "\(method) names \(field): \(error.data)")
        }
        #expect(try await alice.call(API.Tweets.fetch, .init(author: "alice")).tweets.isEmpty)
        let profile = try await alice.call("profile.get")
        #expect(profile["bio"] == "" && profile["firstName"] == "" && profile["lastName"] == "")
        #expect(try await alice.call("lists.mine")["lists"] == [])
        let reports = try await admin.call(API.Admin.reportsList, .init()).reports
        #expect(reports.map(\.reason) == ["spam"] && reports.first?.note == nil)
        #expect(try await admin.call(API.Admin.usersList, .init()).users.allSatisfy { $0.suspendedReason == nil })
    }

    @Test func theHeaviestTextAllowedIsFourBytesACharacterNeverLessThanMastodonsScalars() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        // 140 scalars of 4 bytes each (Mastodon counts 140), and one character of 559 bytes (`x` and 279 accents, which NFC leaves alone).
        let emoji = String(repeating: "😀", count: 140)
        #expect(try await alice.call(API.Tweets.post, .init(text: emoji)).text == emoji)
        let accented = "x" + String(repeating: "\u{301}", count: (560 - 1) / 2)
        #expect(try await alice.call(API.Tweets.post, .init(text: accented)).text.utf8.count == 559)
        let over = try await alice.refusal(API.Tweets.post, .init(text: emoji + "!"))
        #expect(
            over.data["fields"]?["text"]
                == "Tweet is longer than the limit of 140 characters (at most 560 bytes of UTF-8)")
        let bio = try await alice.refusal("profile.update", ["bio": .string(Self.heavy)])
        #expect(bio.data["fields"]?["bio"] == "Bio is at most 160 characters (at most 640 bytes of UTF-8)")
        let name = try await alice.refusal("profile.update", ["firstName": .string(String(repeating: "x", count: 51))])
        #expect(name.data["fields"]?["firstName"] == "Firstname is at most 50 characters")
    }
}
