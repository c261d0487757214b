import TwitterCore

extension TweetAccess {
    /// `reader`'s notifications matching `query` as it may see them, with its unread count: the store leaves the
    /// hidden accounts' out in SQL, and `TweetVisibility.shows` has the last word on what it read.
    func notifications(of reader: Int64, _ query: NotificationQuery, in store: any NotificationStoring) async throws
        -> (notifications: [ActivityNotification], unread: Int)
    {
        let visibility = try await visibility(for: reader)
        let found = try await store.notifications(of: reader, query, hiding: visibility.hiding)
        return (visibility.shown(found), try await store.unreadCount(of: reader, hiding: visibility.hiding))
    }

    /// `reader`'s notifications after `sinceID`, oldest first, at most `limit` read: those it may see, and how many
    /// the store read (a stream that reads more than it may hold has fallen behind, whatever it shows).
    func notifications(
        of reader: Int64, after sinceID: Int64, limit: Int, in store: any NotificationStoring
    ) async throws -> (shown: [ActivityNotification], read: [ActivityNotification]) {
        let visibility = try await visibility(for: reader)
        let read = try await store.notifications(of: reader, after: sinceID, limit: limit, hiding: visibility.hiding)
        return (visibility.shown(read), read)
    }

    /// How many of `reader`'s notifications that it may see are unread.
    func unreadCount(of reader: Int64, in store: any NotificationStoring) async throws -> Int {
        try await store.unreadCount(of: reader, hiding: visibility(for: reader).hiding)
    }

    /// Moves `reader`'s read marker up to `upToID`; what stays unread of what it may see.
    func markRead(of reader: Int64, upTo upToID: Int64, in store: any NotificationStoring) async throws -> Int {
        try await store.markRead(of: reader, upTo: upToID, hiding: visibility(for: reader).hiding)
    }

    /// Whether a live `notification` reaches `reader` now, so a mute or block takes effect at once.
    func shows(_ notification: ActivityNotification, to reader: Int64) async throws -> Bool {
        try await visibility(for: reader).shows(notification)
    }
}
