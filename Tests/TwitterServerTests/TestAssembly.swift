import JSONRPC
import Logging
import TwitterStore

@testable import TwitterServer

/// The daemon's request path over an in-memory database, for tests that need no socket.
enum TestAssembly {
    static func processor() throws -> RequestProcessor<RequestContext> {
        let database = try AppDatabase.inMemory()
        return DaemonAssembly.makeProcessor(
            groups: [], database: database, statistics: ServerStatistics(), limits: .init(),
            logger: Logger(label: "test")
        )
    }
}
