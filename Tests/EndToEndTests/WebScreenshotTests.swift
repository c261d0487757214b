import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// `/@NAME` and `/@NAME/ID` as headless Chromium draws them at a phone's width (390 px) and a desktop's (1280
/// px), against the reference images in Screenshots/, within a tolerance (scripts/compare-png.py). The content
/// is fixed: names and texts, and every date "now" (the posts are minutes younger than the page).
///
/// `make test` installs Debian's chromium (scripts/install-deps.sh) and names it in TWITTERD_TEST_CHROMIUM;
/// set, a missing or failing browser fails the test. `TWITTERD_TEST_UPDATE_SCREENSHOTS=1` writes the references.
@Suite(.serialized) struct WebScreenshotTests {
    static let environment = ProcessInfo.processInfo.environment
    static let chromium = environment["TWITTERD_TEST_CHROMIUM"]
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(.enabled(if: chromium != nil, "TWITTERD_TEST_CHROMIUM is unset: make test names the browser it installs"))
    func profileAndPostPagesLookAsTheirReferencesOnAPhoneAndADesktop() async throws {
        let chromium = try #require(Self.chromium)
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "\(chromium) is not installed")
        let port = try HTTPListenerTests.freePort()
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing, arguments: ["--http", "127.0.0.1:\(port)"],
            store: WebPageTests.store)
        let posted: JSONValue = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "bob@example.com", username: "bob")
            _ = try await connection.call("auth.logout")
            try await connection.signUp(email: "alice@example.com", username: "alice")
            _ = try await connection.call(
                "profile.update",
                ["firstName": "Alice", "lastName": "Liddell", "bio": "Curious about rabbit holes & <tea> parties."])
            let first = try await connection.call(
                "tweets.post", ["text": "Down the rabbit hole we go! #wonderland https://example.org/rabbit"])
            _ = try await connection.call("profile.pin", ["id": first["id"] ?? .null])
            _ = try await connection.call("tweets.post", ["text": "Curiouser and curiouser, says @bob."])
            _ = try await connection.call("auth.logout")
            _ = try await connection.logIn(email: "bob@example.com")
            _ = try await connection.call(
                "tweets.post", ["text": "Wait for me, @alice!", "inReplyToId": first["id"] ?? .null])
            _ = try await connection.call("users.follow", ["username": "alice"])
            return first["id"] ?? .null
        }
        let id = try #require(WebPageTests.id(posted))
        let folder = try TemporaryDirectory.make()
        for (name, path) in [("profile", "/@alice"), ("post", "/@alice/\(id)")] {
            for (width, height) in [(390, 844), (1280, 800)] {
                let file = "\(name)-\(width).png"
                let shot = folder + "/" + file
                try Self.run(
                    chromium,
                    [
                        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--force-color-profile=srgb",
                        "--window-size=\(width),\(height)", "--screenshot=\(shot)", "http://127.0.0.1:\(port)\(path)",
                    ])
                let reference = Self.source.appendingPathComponent("Tests/EndToEndTests/Screenshots/" + file).path
                if Self.environment["TWITTERD_TEST_UPDATE_SCREENSHOTS"] == "1" {
                    try? FileManager.default.removeItem(atPath: reference)
                    try FileManager.default.copyItem(atPath: shot, toPath: reference)
                }
                let status = try Self.run(
                    "/usr/bin/python3",
                    [Self.source.appendingPathComponent("scripts/compare-png.py").path, reference, shot, "0.01"],
                    check: false)
                #expect(status == 0, "\(file) differs from its reference (kept at \(shot))")
            }
        }
        #expect(daemon.stop() == 0)
    }

    /// Runs `executable` to its end; its exit status (a failure throws when `check`).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], check: Bool = true) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        if check && process.terminationStatus != 0 {
            throw ClientError.invalidResponse("\(executable) exited with \(process.terminationStatus)")
        }
        return process.terminationStatus
    }
}
