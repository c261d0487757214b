import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient

/// TwitterClient's typed calls against the real daemon: the declarations in TwitterAPI are what it answers.
@Suite(.serialized) struct TypedClientTests {
    @Test func typedCallsRoundTripThroughTheDaemon() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            #expect(try await alice.call(API.System.ping) == "pong")
            let login = try await alice.call(
                API.Auth.signup, .init(email: "alice@example.com", password: "correct horse battery", username: "alice")
            )
            #expect(login.user.username == "alice")
            #expect(login.session.token.hasPrefix("tws_"))
            let posted = try await alice.call(API.Tweets.post, .init(text: "  typed  "))
            #expect(posted.text == "typed")
            #expect(posted.author.username == "alice")
            let page = try await alice.answer(API.Tweets.fetch, .init(limit: 5))
            #expect(page.result.tweets == [posted])
            #expect(page.result.newestId == posted.id)
            #expect(page.json["tweets"]?[0]?["text"] == "typed", "the raw answer comes along for --json")
            #expect(try await alice.call(API.Tweets.get, .init(id: posted.id)) == posted)
            guard case .own(let profile) = try await alice.call(API.Profiles.get, .init()) else {
                Issue.record("the caller's own profile should carry the e-mail")
                return
            }
            #expect(profile.email == "alice@example.com")
            let whoami = try await alice.call(API.Auth.whoami)
            #expect(whoami.provider == "password")
        }
    }

    @Test func aRemoteErrorStaysARemoteError() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { anonymous in
            do {
                _ = try await anonymous.call(API.Tweets.post, .init(text: "not logged in"))
                Issue.record("posting without a login must fail")
            } catch ClientError.remote(let error) {
                #expect(ErrorCodes.kind(of: error.code) == .unauthenticated)
            }
        }
    }

    @Test func anAnswerOfAnotherShapeIsAnInvalidResponse() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        // A client built against a different declaration of system.version.
        let mismatched = RPCMethod<NoParams, [String]>(API.System.version.descriptor)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            do {
                _ = try await connection.call(mismatched)
                Issue.record("an object cannot decode as an array")
            } catch ClientError.invalidResponse(let detail) {
                #expect(detail.contains("system.version"))
            }
        }
    }
}
