import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// The public web pages as a browser gets them from a real daemon over loopback TCP: the HTML of each page, what
/// it escapes, links and leaves out, the 404 page, and the headers that forbid scripts. What the layer's web.*
/// methods answer is tested in process (`WebRouteTests`).
@Suite(.serialized) struct WebPageTests {
    /// One GET's status line, headers (names lower-cased) and body.
    struct Page {
        var status: String
        var headers: [String: String]
        var body: String
    }

    /// Over a pair of daemons both would take the same `--http` address: one PostgreSQL daemon then, as the
    /// Mastodon client tests do (`MastodonClientWorld`).
    static let store: TestStore = TestStore.ofThisRun == .postgresqlPair ? .postgresql : .ofThisRun

    static func id(_ value: JSONValue?) -> Int64? {
        if case .number(let number)? = value { return number.int64 }
        return nil
    }

    static func get(_ path: String, port: Int, method: String = "GET") throws -> Page {
        let socket = try RawSocket(host: "127.0.0.1", port: port)
        _ = socket.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let lines = socket.readLinesUntilEOF().map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        guard let status = lines.first, let blank = lines.firstIndex(of: "") else {
            throw ClientError.invalidResponse("no HTTP response to GET \(path)")
        }
        var headers: [String: String] = [:]
        for line in lines[1..<blank] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        return Page(status: status, headers: headers, body: lines[(blank + 1)...].joined(separator: "\n"))
    }

    @Test func eachPageShowsWhatNobodyMaySeeEscapedAndLinkedWithoutScripts() async throws {
        let port = try HTTPListenerTests.freePort()
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing, arguments: ["--http", "127.0.0.1:\(port)"],
            store: WebPageTests.store)
        let empty = try Self.get("/", port: port)
        #expect(empty.status.hasPrefix("HTTP/1.1 200") && empty.body.contains("Nothing posted yet"), "\(empty.body)")
        let socket = daemon.socketPath
        let (hostile, reply): (JSONValue, JSONValue) = try await RPCConnection.withConnection(socketPath: socket) {
            connection in
            try await connection.signUp(email: "bob@example.com", username: "bob")
            _ = try await connection.call(
                "profile.update", ["firstName": "Bob", "lastName": "Builder", "bio": "I <b>build</b>"])
            _ = try await connection.call("auth.logout")
            try await connection.signUp(email: "alice@example.com", username: "alice")
            let hostile = try await connection.call(
                "tweets.post", ["text": "<script>alert(1)</script> hi @bob #Swift https://example.org/a?b=1&c=2"])
            let reply = try await connection.call(
                "tweets.post", ["text": "a reply", "inReplyToId": hostile["id"] ?? .null])
            _ = try await connection.call("profile.pin", ["id": hostile["id"] ?? .null])
            for number in 1...20 { _ = try await connection.call("tweets.post", ["text": .string("note \(number)")]) }
            _ = try await connection.call("auth.logout")
            try await connection.signUp(email: "carol@example.com", username: "carol")
            _ = try await connection.call("tweets.post", ["text": "carol keeps this off the web"])
            _ = try await connection.call("profile.update", ["webVisible": false])
            return (hostile, reply)
        }
        let id = try #require(Self.id(hostile["id"]))
        let replyID = try #require(Self.id(reply["id"]))

        let profile = try Self.get("/@alice", port: port)
        #expect(profile.status.hasPrefix("HTTP/1.1 200"))
        #expect(profile.headers["content-type"] == "text/html; charset=utf-8")
        let policy = try #require(profile.headers["content-security-policy"])
        #expect(policy.contains("default-src 'none'") && !policy.contains("script-src"), "no script may run")
        let body = profile.body
        #expect(!body.contains("<script"), "nothing a script")
        #expect(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the text's characters, escaped")
        #expect(body.contains(#"href="http://127.0.0.1:\#(port)/@bob""#), "a mention links its account")
        #expect(body.contains(#"href="http://127.0.0.1:\#(port)/tags/swift""#), "a tag links its page")
        #expect(body.contains(#"href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="nofollow noopener""#))
        #expect(body.contains(#"<link rel="canonical" href="http://127.0.0.1:\#(port)/@alice">"#))
        #expect(body.contains(#"<meta property="og:title" content="alice (@alice)">"#))
        #expect(body.contains("<title>alice (@alice)</title>"))
        #expect(body.contains(#"<h2 class="section">Pinned</h2>"#))
        #expect(body.contains("<b>22</b> posts"))
        #expect(body.contains(">now</time>"), "a human date")
        #expect(body.contains("note 20") && !body.contains("carol"))
        let older = try #require(body.firstRange(of: #"href="/@alice?max_id="#).map { body[$0.upperBound...] })
        let maxID = String(older.prefix { $0.isNumber })
        let second = try Self.get("/@alice?max_id=\(maxID)", port: port).body
        #expect(second.contains("a reply") && !second.contains("note 20"), "the older page")

        // HEAD: what GET answers, without the body.
        let head = try Self.get("/@alice", port: port, method: "HEAD")
        #expect(head.status == profile.status && head.body.isEmpty)
        let length = try #require(profile.headers["content-length"])
        #expect(head.headers["content-length"] == length, "what GET's body would be")
        #expect(head.headers["content-type"] == profile.headers["content-type"])
        #expect(head.headers["content-security-policy"] == policy)
        #expect(try Self.get("/@carol", port: port, method: "HEAD").status.hasPrefix("HTTP/1.1 404"))

        let bob = try Self.get("/@BOB", port: port).body
        #expect(bob.contains("<h1>Bob Builder</h1>") && bob.contains("I &lt;b&gt;build&lt;/b&gt;"))

        let thread = try Self.get("/@alice/\(id)", port: port)
        #expect(thread.status.hasPrefix("HTTP/1.1 200"))
        #expect(thread.body.contains(#"class="tweet focus" id="t\#(id)""#))
        #expect(thread.body.contains(#"class="tweet reply" id="t\#(replyID)""#))
        #expect(thread.body.contains(#"<meta property="og:type" content="article">"#))

        let tag = try Self.get("/tags/SWIFT", port: port)
        #expect(tag.status.hasPrefix("HTTP/1.1 200") && tag.body.contains("&lt;script&gt;"))
        let everyone = try Self.get("/", port: port).body
        #expect(everyone.contains("note 20") && !everyone.contains("carol keeps"), "carol is off the web")

        for path in ["/@carol", "/@nobody", "/@alice/999999", "/@bob/\(id)", "/tags/%23", "/@alice/x"] {
            let missing = try Self.get(path, port: port)
            #expect(missing.status.hasPrefix("HTTP/1.1 404"), "\(path)")
            #expect(missing.body.contains("<h1>Not found</h1>") && missing.headers["content-security-policy"] != nil)
            #expect(!missing.body.contains("carol keeps"), "\(path)")
        }
        #expect(daemon.stop() == 0)
    }
}
