import JSONRPC
import Logging
import Sodium
import TwitterAssembly
import TwitterServer

/// The daemon's own assembly over an in-memory database, for tests that need no socket.
enum TestAssembly {
    static func processor() throws -> RequestProcessor<RequestContext> {
        var configuration = ServerConfiguration(socketPath: "/unused", databasePath: ":memory:")
        // libsodium's smallest Argon2id cost: these tests hash, they do not measure hashing.
        configuration.auth.passwordOperations = 1
        configuration.auth.passwordMemoryBytes = 8 * 1024
        configuration.auth.hashingThreads = 1
        let services = try ServiceAssembly(
            database: try .inMemory(), configuration: configuration,
            tokenKey: Sodium.shared.randomBytes(count: 32), logger: Logger(label: "test"))
        return services.makeProcessor(
            statistics: ServerStatistics(), settings: LiveSettings(limits: .init()), logger: Logger(label: "test"))
    }
}
