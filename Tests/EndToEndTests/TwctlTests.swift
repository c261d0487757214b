import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// twctl, the real binary, against a real daemon; its session file lives in a temporary config folder.
@Suite(.serialized) struct TwctlTests {
    struct Client {
        let daemon: DaemonProcess
        /// Always the same socket: twctl keeps its session per socket (see `TwctlSocialTests.Person`).
        let socket: String
        let config: String

        init(_ daemon: DaemonProcess) throws {
            self.daemon = daemon
            socket = daemon.socketPath
            config = try TemporaryDirectory.make(prefix: "twctl")
        }

        @discardableResult
        func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, error: String) {
            try runProduct(
                "twctl", arguments,
                environment: ["TWITTERD_SOCKET": socket, "XDG_CONFIG_HOME": config, "NO_COLOR": "1"],
                input: input
            )
        }
    }

    @Test func everydayUseFromSignupToLogout() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let client = try Client(daemon)
        let signup = try client.run(
            ["signup", "--email", "alice@example.com", "--username", "alice", "--password-stdin"],
            input: "correct horse battery\n"
        )
        #expect(signup.status == 0, "\(signup.error)")
        #expect(signup.output.contains("Signed up and logged in as @alice"))
        let attributes = try FileManager.default.attributesOfItem(atPath: client.config + "/twctl/session.json")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: client.config + "/twctl")
        #expect((folder[.posixPermissions] as? Int) == 0o700)

        let login = try client.run(
            ["login", "--email", "alice@example.com", "--password-stdin"], input: "correct horse battery")
        #expect(login.status == 0)
        let post = try client.run(["post", "hello from twctl"])
        #expect(post.status == 0)
        #expect(post.output.contains("@alice"))
        #expect(post.output.contains("hello from twctl"))
        let piped = try client.run(["post", "-"], input: "from standard input\n")
        #expect(piped.output.contains("from standard input"))
        let feed = try client.run(["feed"])
        #expect(feed.output.contains("hello from twctl"))
        #expect(feed.output.contains("from standard input"))

        let json = try client.run(["--json", "feed", "--limit", "1"])
        let page = try JSONParser().parse(json.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(page["tweets"]?[0]?["text"] == "from standard input")

        let changed = try client.run(["profile", "set", "--first-name", "Alice", "--age", "30"])
        #expect(changed.output == "Changed: firstName, age\n")
        let unchanged = try client.run(["profile", "set", "--first-name", "Alice"])
        #expect(unchanged.output == "No changes\n")
        let invalid = try client.run(["profile", "set", "--first-name", "A", "--age", "200"])
        #expect(invalid.status == 65)
        #expect(invalid.error.contains("firstName: Firstname is too short"))
        #expect(invalid.error.contains("age: Must be older than 13 and younger than 124"))
        #expect(try client.run(["profile", "set", "--no-web"]).output == "Changed: webVisible\n")
        #expect(try client.run(["profile", "set", "--no-web"]).output == "No changes\n")
        #expect(try client.run(["profile", "set", "--web"]).output == "Changed: webVisible\n")

        let logout = try client.run(["logout"])
        #expect(logout.status == 0)
        let after = try client.run(["whoami"])
        #expect(after.status == 77)
    }

    @Test func aPersonalTokenLogsInFromStandardInput() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let client = try Client(daemon)
        try client.run(
            ["signup", "--email", "bob@example.com", "--username", "bob", "--password-stdin"],
            input: "correct horse battery")
        let created = try client.run(
            ["--json", "token", "create", "script", "--password-stdin"], input: "correct horse battery")
        let token = try #require(
            try JSONParser().parse(created.output.trimmingCharacters(in: .whitespacesAndNewlines))["token"])
        guard case .string(let secret) = token else { throw ClientError.invalidResponse("no token") }
        let other = try Client(daemon)
        let login = try other.run(["login", "--token-stdin"], input: secret + "\n")
        #expect(login.status == 0, "\(login.error)")
        let whoami = try other.run(["whoami", "--json"])
        let answer = try JSONParser().parse(whoami.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(answer["user"]?["username"] == "bob")
        #expect(answer["provider"] == "token")
    }

    @Test func oauthAuthorizePrintsACodeTheAppRedeemsOnce() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let client = try Client(daemon)
        try client.run(
            ["signup", "--email", "dora@example.com", "--username", "dora", "--password-stdin"],
            input: "correct horse battery")
        let outOfBand = "urn:ietf:wg:oauth:2.0:oob"
        let (app, token) = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let app = try await connection.call(
                "oauth.apps.register",
                ["name": "toot", "redirectUris": .array([.string(outOfBand)]), "scopes": "read write"])
            let printed = try client.run(["oauth", "authorize", app["clientId"]?.text ?? "", "--scope", "read write"])
            #expect(printed.status == 0, "\(printed.error)")
            let lines = printed.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines.last?.contains("Authorized \"toot\" for read write") == true)
            let code = lines.first ?? ""
            let redeem: JSONValue = [
                "grantType": "authorization_code", "clientId": app["clientId"] ?? .null,
                "clientSecret": app["clientSecret"] ?? .null, "code": .string(code), "redirectUri": .string(outOfBand),
            ]
            let token = try await connection.call("oauth.token", redeem)
            #expect(token["scope"] == "read write")
            await #expect(throws: ClientError.self, "a code is redeemed once") {
                _ = try await connection.call("oauth.token", redeem)
            }
            return (app, token["accessToken"]?.text ?? "")
        }
        let other = try Client(daemon)
        #expect(try other.run(["login", "--token-stdin"], input: token + "\n").status == 0)
        #expect(try other.run(["whoami"]).output.contains("dora"))
        let listed = try client.run(["token", "list"]).output
        #expect(listed.contains("\ttoot\t") && listed.contains("OAuth app, scopes read write"), "\(listed)")
        let unknown = try client.run(["oauth", "authorize", "twc_unknown"])
        #expect(unknown.status != 0 && unknown.error.contains("Client authentication failed"))
        _ = app
    }

    @Test func anExpiredSessionSaysSoAndExits77() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let client = try Client(daemon)
        try client.run(["signup", "--email", "carol@example.com", "--password-stdin"], input: "correct horse battery")
        let saved = try Data(contentsOf: URL(fileURLWithPath: client.config + "/twctl/session.json"))
        let token = try #require(
            String(decoding: saved, as: UTF8.self).split(separator: "\"").first { $0.hasPrefix("tws_") })
        // The session is revoked elsewhere, as logging out on another machine would.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: String(token))
            _ = try await connection.call("auth.logout")
        }
        let whoami = try client.run(["whoami"])
        #expect(whoami.status == 77)
        #expect(whoami.error.contains("Your session has expired. Run `twctl login`."))
    }

    @Test func anUnreachableDaemonIsExplainedWithExit69() throws {
        let directory = try TemporaryDirectory.make()
        let result = try runProduct("twctl", ["--socket", directory + "/missing.sock", "status"])
        #expect(result.status == 69)
        #expect(
            result.error.contains(
                "cannot connect to twitterd at \(directory)/missing.sock: no such file (is the daemon running? try `systemctl start twitterd`)"
            ))
    }

    @Test func missingPasswordWithoutATerminalIsAUsageError() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let result = try Client(daemon).run(["login", "--email", "x@example.com"])
        #expect(result.status == 64)
    }

    @Test func followPrintsATweetPostedFromAnotherConnection() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let client = try Client(daemon)
        try client.run(
            ["signup", "--email", "dan@example.com", "--username", "dan", "--password-stdin"],
            input: "correct horse battery")
        try client.run(["post", "already there"])
        let follower = try RunningProduct(
            "twctl", ["feed", "--follow"],
            environment: ["TWITTERD_SOCKET": client.socket, "XDG_CONFIG_HOME": client.config, "NO_COLOR": "1"]
        )
        // The existing feed is printed first: after it, the follower is streaming.
        var lines: [String] = []
        while let line = follower.readLine(), !line.contains("already there") { lines.append(line) }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(email: "dan@example.com")
            _ = try await connection.call("tweets.post", ["text": "posted elsewhere"])
        }
        var sawIt = false
        while let line = follower.readLine() {
            if line.contains("posted elsewhere") {
                sawIt = true
                break
            }
        }
        #expect(sawIt)
        follower.interrupt()
    }

    @Test func followEndsWithStatus77WhenTheSessionIsLoggedOutElsewhere() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let client = try Client(daemon)
        try client.run(
            ["signup", "--email", "erin@example.com", "--username", "erin", "--password-stdin"],
            input: "correct horse battery")
        let follower = try RunningProduct(
            "twctl", ["feed", "--follow"],
            environment: ["TWITTERD_SOCKET": client.socket, "XDG_CONFIG_HOME": client.config, "NO_COLOR": "1"],
            errorsToo: true
        )
        // A tweet seen live proves the follower is subscribed before the session ends.
        try client.run(["post", "streaming now"])
        while let line = follower.readLine(), !line.contains("streaming now") {}
        #expect(try client.run(["logout"]).status == 0)
        var farewell: [String] = []
        while let line = follower.readLine() { farewell.append(line) }
        #expect(follower.waitForExit() == 77)
        #expect(
            farewell.contains { $0.contains("Logged out: the session was logged out on another connection") },
            "\(farewell)")
    }

    /// Runs twctl as `nobody` on a socket that nobody is outside the group of. The binary is copied to a folder
    /// nobody can reach, so the checkout may live anywhere (a 0700 home folder included).
    @Test(.enabled(if: geteuid() == 0, "runuser -u nobody needs root"))
    func permissionDeniedNamesTheGroup() async throws {
        let reachable = try TemporaryDirectory.make()
        chmod(reachable, 0o755)
        let twctl = try BuiltProducts.copy("twctl", into: reachable)
        let version = try Self.runAsNobody([twctl, "--version"])
        try #require(
            version.status == 0, "nobody cannot run a copy of twctl in \(reachable) at all: \(version.error)")

        let daemon = try await DaemonProcess(socketDirectory: reachable)
        let socket = daemon.socketPath
        let denied = try Self.runAsNobody([twctl, "--socket", socket, "status"])
        #expect(denied.status == 77)
        #expect(denied.error.contains("permission denied on \(socket): add your user to the twitterd group"))
    }

    static func runAsNobody(_ command: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", "nobody", "--"] + command
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }
}

extension JSONValue {
    fileprivate var text: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
