import MastodonAPI
import TwitterAPI

/// What a request answers: a response, or a stream of server-sent events to keep writing.
enum HTTPAnswer: Sendable {
    case response(MastodonResponse)
    case events(EventStreamStart)
}

// @MemberwiseInit
/// A Mastodon stream whose subscriptions the layer has made on the connection's session: their notification
/// lines are translated into events (`MastodonStreamEvents`) as the session's forwarders deliver them.
struct EventStreamStart: Sendable {
    var stream: MastodonStream
    /// The caller's username, which a conversation event leaves out of its accounts.
    var caller: String
    /// The origin the client used, for the URLs in the payloads.
    var origin: String
}

extension HTTPResponder {
    /// The stream a `/api/v1/streaming/...` path names (`user`, `user/notification` as `user:notification`,
    /// `public/local`, `hashtag?tag=`, `list?list=`, `direct`); nil when it names none.
    static func streamName(_ path: Substring) -> String? {
        // Every request asks this first: a prefix test, not a split, for the paths of all the others.
        guard path.utf8.starts(with: "/api/v1/streaming/".utf8) else { return nil }
        let segments = path.split(separator: "/")
        guard segments.count >= 4, segments[0] == "api", segments[1] == "v1", segments[2] == "streaming" else {
            return nil
        }
        return segments[3...].joined(separator: ":")
    }

    /// Starts the stream `name` for the request: its subscriptions through the layer, as the bearer's account.
    func startStream(
        named name: String, params: MastodonParams, origin: String, caller: LayerCaller
    ) async throws -> HTTPAnswer {
        guard let stream = MastodonStream(name: name, tag: params.string("tag"), list: params.string("list")) else {
            throw MastodonError.notFound("No stream \(name)")
        }
        let whoami = try await caller.call(API.Auth.whoami)
        _ = try await stream.subscribe(with: caller)
        return .events(EventStreamStart(stream: stream, caller: whoami.user.username, origin: origin))
    }
}
