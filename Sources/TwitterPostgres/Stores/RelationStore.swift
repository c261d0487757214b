import Foundation
import PostgresNIO
import TwitterCore

/// Mutes and blocks in PostgreSQL.
struct RelationStore: RelationStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    func mute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unmute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func block(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unblock(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func muted(by userID: Int64, page: PageRequest) async throws -> UserPage {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func blocked(by userID: Int64, page: PageRequest) async throws -> UserPage {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func hiddenAccounts(of userID: Int64) async throws -> HiddenAccounts {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
