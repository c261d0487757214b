import Foundation
import PostgresNIO
import TwitterCore

/// Unix uids linked to accounts in PostgreSQL.
struct PeerLinkStore: PeerLinkStoring {
    let database: PostgresStore

    func linkPeer(uid: UInt32, userID: Int64) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func linkedUser(uid: UInt32) async throws -> User? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func links() async throws -> [(uid: UInt32, userID: Int64)] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
