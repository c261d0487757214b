import Foundation
import PostgresNIO
import TwitterCore

/// Archives, deletion and reset codes in PostgreSQL.
struct AccountStore: AccountLifecycleStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    func archivePage(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws -> AccountArchivePage {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func deleteAccount(_ userID: Int64, reservingNameUntil reservedUntil: Date) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func storeResetCode(_ hash: [UInt8], for userID: Int64, expiresAt: Date) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func takeResetCode(_ hash: [UInt8], email: String, at now: Date) async throws -> Int64? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
