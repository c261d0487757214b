import Foundation
import PostgresNIO
import TwitterCore

/// Failed-login counters in PostgreSQL.
struct ThrottleStore: ThrottleStoring {
    let database: PostgresStore

    func throttleState(for key: String) async throws -> ThrottleState? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func updateThrottleState(for key: String, _ transform: @escaping @Sendable (ThrottleState?) -> ThrottleState)
        async throws
    {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func resetThrottleStates(for keys: [String]) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
