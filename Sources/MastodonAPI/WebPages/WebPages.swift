import Foundation
import JSONRPC
import TwitterAPI

/// The public web pages, HTML beside the Mastodon API on the same HTTP front: `/` (everyone's posts, or a page
/// about the service when there are none), `/@NAME` (a profile and its posts, paged with "older" links),
/// `/@NAME/ID` (a post and its thread) and `/tags/TAG`.
///
/// Each page reads through the layer's `web.*` methods, which read as nobody and leave out the accounts off the
/// web; nothing here decides what may be shown. Anything the layer does not find is the one 404 page.
public enum WebPages {
    /// What a path names, when it is a page's.
    enum Route: Equatable {
        case home
        case profile(String)
        case tweet(String, Int64)
        case tag(String)

        /// Whether it is a profile's, made from two answers (the account's and its posts').
        var isProfile: Bool {
            if case .profile = self { true } else { false }
        }
    }

    /// Whether `path` is one of the pages' (the transport asks before the API's endpoints): `GET`, or `HEAD`,
    /// which the transport answers with the same status and headers and no body.
    public static func serves(method: String, path: Substring) -> Bool {
        // By bytes: `hasPrefix` on a Substring compares characters, each made a string (callgrind).
        (method == "GET" || method == "HEAD")
            && (path.utf8.elementsEqual("/".utf8) || path.utf8.starts(with: "/@".utf8)
                || path.utf8.starts(with: "/tags/".utf8))
    }

    /// The answer to `GET path?query`, read through `caller` (whose login, if any, the `web.*` methods ignore),
    /// its links starting with `origin` and its dates counted from `now`.
    public static func respond(
        path: Substring, query: Substring?, origin: String, now: Date = Date(), caller: any MastodonCaller
    ) async -> MastodonResponse {
        guard let route = route(path) else { return WebLayout.response(.notFound(String(path)), origin: origin) }
        let maxID = (try? MastodonParams.decode(query: query, body: [], contentType: nil))?.string("max_id")
            .flatMap { Int64($0) }
        // Dates are shown to the minute at best, so a page is rendered as at the start of its second, and kept for
        // that second: within it, the same answers are the same page.
        let second = now.timeIntervalSince1970.rounded(.down)
        let reader = WebPageReader(
            caller: caller, view: WebTweetView(origin: origin, now: Date(timeIntervalSince1970: second)))
        do throws(RPCError) {
            let answers = try await reader.answers(route, maxID: maxID)
            let context = "\(origin) \(path) \(maxID ?? 0) \(Int64(second))"
            return try WebPageRenderings.shared.rendering(of: Array(answers.joined(separator: [0])), context: context) {
                () throws(RPCError) in
                var page = WebLayout.response(try reader.page(route, maxID: maxID, answers: answers), origin: origin)
                page.compression = KeptCompression()
                return page
            }
        } catch let error where error.code == -32004 || error.code == -32602 {
            return WebLayout.response(.notFound(String(path)), origin: origin)
        } catch {
            return WebLayout.response(.failed(String(path)), origin: origin)
        }
    }

    /// The route of `path`; nil for none (a 404).
    static func route(_ path: Substring) -> Route? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
            MastodonParams.percentDecoded(ArraySlice($0.utf8))
        }
        switch segments.count {
        case 0: return .home
        case 1 where segments[0].hasPrefix("@") && segments[0].count > 1:
            return .profile(String(segments[0].dropFirst()))
        case 2 where segments[0].hasPrefix("@") && segments[0].count > 1:
            guard let id = Int64(segments[1]), id > 0 else { return nil }
            return .tweet(String(segments[0].dropFirst()), id)
        case 2 where segments[0] == "tags" && !segments[1].isEmpty:
            return .tag(segments[1])
        default: return nil
        }
    }
}
