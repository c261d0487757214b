/// The endpoints served, looked up by method and path: `:name` segments capture, and a trailing slash is
/// tolerated (Mastodon.py calls `/api/v1/instance/`).
public struct MastodonEndpointTable: Sendable {
    /// What a lookup finds.
    public enum Match: Sendable {
        /// An endpoint, with the path's captured segments.
        case found(MastodonEndpoint, [String: String])
        /// The path exists, not with this method: 405, with the methods it has.
        case wrongMethod(allowed: [String])
        /// No endpoint has this path: 404.
        case notFound
    }

    private struct Entry: Sendable {
        let endpoint: MastodonEndpoint
        let segments: [Substring]
    }

    /// Exact paths (no `:name`) by path, checked first; the patterned ones in order.
    private let exact: [String: [Entry]]
    private let patterned: [Entry]

    /// A table of `endpoints`; where two have the same method and path, the first wins.
    public init(_ endpoints: [MastodonEndpoint]) {
        var exact: [String: [Entry]] = [:]
        var patterned: [Entry] = []
        for endpoint in endpoints {
            let segments = Self.segments(endpoint.path)
            let entry = Entry(endpoint: endpoint, segments: segments)
            if segments.contains(where: { $0.hasPrefix(":") }) {
                patterned.append(entry)
            } else {
                exact["/" + segments.joined(separator: "/"), default: []].append(entry)
            }
        }
        self.exact = exact
        self.patterned = patterned
    }

    /// The endpoint for `method` on `path` (no query).
    public func match(method: String, path: Substring) -> Match {
        // The common case first: a path written as its endpoint is (no doubled or trailing slash), of a route
        // without parameters, for its method. Anything else takes the general way below, which finds it too.
        if let entries = exact[String(path)], let entry = entries.first(where: { $0.endpoint.method == method }) {
            return .found(entry.endpoint, [:])
        }
        let segments = Self.segments(path)
        var allowed: [String] = []
        if let entries = exact["/" + segments.joined(separator: "/")] {
            if let entry = entries.first(where: { $0.endpoint.method == method }) { return .found(entry.endpoint, [:]) }
            allowed += entries.map(\.endpoint.method)
        }
        for entry in patterned where entry.segments.count == segments.count {
            guard let captures = Self.captures(entry.segments, segments) else { continue }
            if entry.endpoint.method == method { return .found(entry.endpoint, captures) }
            allowed.append(entry.endpoint.method)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: Array(Set(allowed)).sorted())
    }

    private static func captures(_ pattern: [Substring], _ segments: [Substring]) -> [String: String]? {
        var captures: [String: String] = [:]
        for (expected, actual) in zip(pattern, segments) {
            if expected.hasPrefix(":") {
                captures[String(expected.dropFirst())] = MastodonParams.percentDecoded(ArraySlice(actual.utf8))
            } else if expected != actual {
                return nil
            }
        }
        return captures
    }

    /// The path's segments; empty ones (a trailing or doubled slash) are dropped.
    private static func segments<S: StringProtocol>(_ path: S) -> [Substring] {
        String(path).split(separator: "/", omittingEmptySubsequences: true)
    }
}
