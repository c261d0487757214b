import Logging
import PostgresNIO
import Synchronization
import TestSupport
import Testing
import TwitterCore

@testable import TwitterPostgres

/// The stores send every statement from its connection's own event loop (`PostgresConnection.onLoop`):
/// postgres-nio 1.33.2 drops a statement written to a connection that has closed, and its caller would wait
/// for good. Without that guard the statement below is never answered, and the test says so after 10 s.
@Suite struct ConnectionLoopTests {
    let quiet = Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aStatementOnAClosedConnectionIsRefusedAsUnreachableInsteadOfLeftWaiting() async throws {
        let location = try PostgresLocation(url: try TestPostgres.freshDatabase())
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                unixSocketPath: try #require(location.socketPath), username: location.user, password: nil,
                database: location.database),
            id: 1, logger: quiet)
        #expect(try await connection.value("SELECT 41 + 1", as: Int.self) == 42)
        try await connection.close()
        // Run apart, so that a statement left waiting fails the test instead of hanging it.
        let outcome = Outcome()
        Task {
            do {
                try await connection.run("SELECT 1")
                outcome.set(.success(()))
            } catch {
                outcome.set(.failure(error))
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while outcome.value == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        switch outcome.value {
        case nil: Issue.record("a statement on a closed connection was left waiting")
        case .success: Issue.record("a statement on a closed connection ran")
        case .failure(let error):
            #expect((error as? TwitterError)?.kind == .unavailable, "a lost connection is -32008: \(error)")
        }
    }

    private final class Outcome: Sendable {
        private let result = Mutex<Result<Void, any Error>?>(nil)
        func set(_ value: Result<Void, any Error>) { result.withLock { $0 = value } }
        var value: Result<Void, any Error>? { result.withLock { $0 } }
    }
}
