import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `system.*` and `rpc.discover`: open to any connection, logged in or not.
struct SystemRouteTests: RouteTesting {
    static let routes = [
        API.System.ping.name, API.System.version.name, API.System.health.name, API.System.discover.name,
        API.System.limits.name,
    ]

    @Test func limitsSayTheConfiguredLongestTweetWithoutALogin() async throws {
        #expect(try await InProcessDaemon().connect().call(API.System.limits) == .init(tweetMaximumLength: 140))
        let daemon = try await InProcessDaemon { $0.tweetMaximumLength = 280 }
        #expect(try await daemon.connect().call(API.System.limits).tweetMaximumLength == 280)
    }

    @Test func pingAnswersPongWithoutALoginAndTakesNoParams() async throws {
        let daemon = try await InProcessDaemon()
        let anonymous = daemon.connect()
        #expect(try await anonymous.call(API.System.ping) == "pong")
        #expect(try await anonymous.call("system.ping", []) == "pong", "positional: an empty array is no params")
        #expect(try await anonymous.refusal("system.ping", ["extra": 1]).code == -32602)
    }

    @Test func versionNamesTheProtocolAndTheStore() async throws {
        let daemon = try await InProcessDaemon()
        let version = try await daemon.connect().call(API.System.version)
        #expect(version.protocol == TwitterdVersion.protocolVersion)
        #expect(version.version == TwitterdVersion.current)
        #expect(version.store == "sqlite")
        #expect(!version.libsodium.isEmpty && !version.sqlite.isEmpty)
    }

    @Test func healthSaysTheDatabaseAnswers() async throws {
        let daemon = try await InProcessDaemon()
        let health = try await daemon.connect().call(API.System.health)
        #expect(health.status == "ok")
        #expect(health.store == "sqlite")
        #expect(health.uptimeSeconds >= 0)
    }

    @Test func discoverDescribesEveryRouteWithoutALogin() async throws {
        let daemon = try await InProcessDaemon()
        let document = try await daemon.connect().call(API.System.discover)
        guard case .array(let methods)? = document["methods"] else {
            Issue.record("no methods in \(document)")
            return
        }
        let names = methods.compactMap { method -> String? in
            if case .string(let name)? = method["name"] { name } else { nil }
        }
        #expect(Set(names) == Set(daemon.processor.router.descriptors.map(\.name)))
        #expect(document["openrpc"] != nil)
    }
}
