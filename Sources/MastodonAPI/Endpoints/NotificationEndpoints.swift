import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/notifications` and `/api/v1/markers`.
enum NotificationEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/notifications", list),
        MastodonEndpoint("GET", "/api/v1/notifications/:id") { request, caller in
            // No method reads one notification: the page that ends with it, of one.
            let id = try request.id()
            let page = try await caller.call(API.Notifications.list, .init(maxId: id + 1, limit: 1))
            guard let notification = page.notifications.first, notification.id == id else {
                throw MastodonError.notFound()
            }
            return .json { MastodonNotification.write(notification, origin: request.origin, into: &$0) }
        },
        MastodonEndpoint("POST", "/api/v1/notifications/clear") { _, caller in
            _ = try await caller.call(API.Notifications.clear)
            return .empty
        },
        MastodonEndpoint("POST", "/api/v1/notifications/:id/dismiss") { request, caller in
            _ = try await caller.call(API.Notifications.dismiss, .init(id: try request.id()))
            return .empty
        },
        MastodonEndpoint("GET", "/api/v1/markers", markers),
        MastodonEndpoint("POST", "/api/v1/markers", postMarkers),
    ]

    /// `GET /api/v1/notifications`: `types[]` and `exclude_types[]` in Mastodon's names; a selection of only
    /// types we never make is an empty page.
    @Sendable static func list(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let paging = try request.paging()
        var kinds = Set(ActivityNotification.Kind.allCases)
        let types = request.params.strings("types")
        if !types.isEmpty { kinds = MastodonNotification.kinds(of: types) }
        kinds.subtract(MastodonNotification.kinds(of: request.params.strings("exclude_types")))
        guard !kinds.isEmpty else { return .emptyArray }
        let selected = kinds.count == ActivityNotification.Kind.allCases.count ? nil : kinds
        let page = try await caller.call(
            API.Notifications.list,
            .init(
                sinceId: paging.lowerID, maxId: try paging.maxTweetID(), limit: paging.limit(.tweets),
                types: selected.map { ActivityNotification.Kind.allCases.filter($0.contains) }))
        let link = MastodonLink.header(
            for: request, path: "/api/v1/notifications", next: page.oldestId.map { String($0) },
            previous: page.newestId.map { String($0) })
        return .json(headers: link.map { [$0] } ?? []) { bytes in
            writeArray(page.notifications, into: &bytes) {
                MastodonNotification.write($0, origin: request.origin, into: &$1)
            }
        }
    }

    /// `GET /api/v1/markers?timeline[]=notifications`: our read marker is where the notifications stop being
    /// unread, so the newest read one of the newest page says it ("0" before any is read). The home timeline has
    /// no marker here, and is left out as Mastodon leaves out a timeline without one.
    @Sendable static func markers(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let timelines = request.params.strings("timeline")
        guard timelines.isEmpty || timelines.contains("notifications") else { return .json(Array("{}".utf8)) }
        let page = try await caller.call(API.Notifications.list, .init(limit: API.PageSize.tweets.maximum))
        let lastRead = page.notifications.first(where: \.read)?.id ?? 0
        return .json { writeNotificationsMarker(lastRead, into: &$0) }
    }

    private static func writeNotificationsMarker(_ id: Int64, into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { markers, bytes in
            markers.raw("notifications", into: &bytes) { bytes in
                JSONObjectWriter.write(into: &bytes) { marker, bytes in
                    marker.stringID("last_read_id", id, into: &bytes)
                    marker.count("version", 0, into: &bytes)
                    marker.null("updated_at", into: &bytes)
                }
            }
        }
    }

    /// `POST /api/v1/markers`: `notifications[last_read_id]` marks ours read up to it; the home timeline has no
    /// marker here.
    @Sendable static func postMarkers(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        guard let text = request.params.string("notifications[last_read_id]"), !text.isEmpty else {
            return .json(Array("{}".utf8))
        }
        guard let id = Int64(text), id >= 0 else {
            throw MastodonError.unprocessable("notifications[last_read_id] must be an id")
        }
        _ = try await caller.call(API.Notifications.markRead, .init(upToId: id))
        return .json { writeNotificationsMarker(id, into: &$0) }
    }
}
