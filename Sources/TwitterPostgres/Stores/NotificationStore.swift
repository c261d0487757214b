import Foundation
import PostgresNIO
import TwitterCore

/// Notifications in PostgreSQL.
struct NotificationStore: NotificationStoring {
    let database: PostgresStore

    func notifications(of recipientID: Int64, _ query: NotificationQuery, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func notifications(of recipientID: Int64, after sinceID: Int64, limit: Int, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func markRead(of recipientID: Int64, upTo upToID: Int64, hiding: Set<Int64>) async throws -> Int {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unreadCount(of recipientID: Int64, hiding: Set<Int64>) async throws -> Int {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
