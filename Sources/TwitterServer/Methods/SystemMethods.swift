import JSONRPC
import Synchronization
import TwitterAPI
import TwitterCore

/// `system.*` and `rpc.discover`: the methods any connection may call to see that the daemon is alive.
struct SystemMethods {
    let database: any HealthChecking
    let versions: ComponentVersions
    let statistics: ServerStatistics
    /// The configured longest tweet, which `system.limits` tells clients (the Mastodon API's instance does).
    let tweetMaximumLength: Int

    func register(in router: inout Router<RequestContext>) {
        router.register(API.System.ping, in: .open, { (_: NoParams, _) in "pong" })
        router.register(
            API.System.limits, in: .open,
            { [tweetMaximumLength] (_: NoParams, _) in API.System.Limits(tweetMaximumLength: tweetMaximumLength) })
        router.register(
            API.System.version, in: .open,
            { [versions] (_: NoParams, _) in
                API.System.Version(
                    version: TwitterdVersion.current, protocol: TwitterdVersion.protocolVersion,
                    swift: TwitterdVersion.swift, libsodium: versions.libsodium, sqlite: versions.sqlite,
                    store: versions.store, storeVersion: versions.storeVersion
                )
            })
        router.register(
            API.System.health, in: .open,
            { [database, statistics, versions] (_: NoParams, _) in
                // Bounded: a server cut off by the network leaves a query unanswered for as long as TCP retries.
                let databaseAnswers = await HealthReporter.databaseAnswers(database, within: .seconds(1))
                // The event loops answer: this is one of them. The verdict is the watchdog's, in one place.
                let health = HealthReporter.health(
                    loopsAnswer: true, database: databaseAnswers ? .answered : .unreachable,
                    databaseInProcess: database.answersInProcess, durability: database.durability)
                return API.System.Health(
                    status: health.status, uptimeSeconds: statistics.uptimeSeconds,
                    connections: statistics.connections, requestsServed: statistics.requestsServed,
                    store: versions.store
                )
            })
    }

    /// `rpc.discover` describes every method, itself included, so it is registered last.
    static func registerDiscovery(in router: inout Router<RequestContext>) {
        let document = DiscoveryDocument(methods: router.descriptors + [API.System.discover.descriptor])
        router.register(API.System.discover, in: .open, { (_: NoParams, _) in document.value })
    }
}

/// The OpenRPC document, made on the first `rpc.discover` and kept: as a tree of JSON values it held 0.6 MB
/// that an idle daemon, which no one asks to describe itself, does not need (idle RSS 31.7 -> 31.3 MB).
final class DiscoveryDocument: Sendable {
    private let methods: [MethodDescriptor]
    private let made = Mutex<JSONValue?>(nil)

    init(methods: [MethodDescriptor]) {
        self.methods = methods
    }

    var value: JSONValue {
        made.withLock { made in
            if let made { return made }
            let document = OpenRPCDocument.make(title: "twitterd", version: TwitterdVersion.current, methods: methods)
            made = document
            return document
        }
    }
}
