/// Where the HTTP transport listens: a Unix socket path, or a loopback TCP address.
///
/// Only loopback is ever accepted: the Mastodon API over HTTP carries bearer tokens in the clear, and over
/// loopback the kernel can still say which local user connects (sock_diag), which no LAN peer would have.
public enum HTTPListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A Unix socket at this path (`unix:PATH`).
    case unix(path: String)
    /// A loopback TCP address: `127.0.0.1:3000`, `[::1]:3000` or `localhost:3000` (both loopbacks).
    case tcp(host: String, port: Int)

    /// The address as written in the configuration.
    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// Parses `unix:PATH`, `HOST:PORT` or `[IPV6]:PORT`, refusing any host that is not loopback (`0.0.0.0`,
    /// `::`, a LAN address, a name other than `localhost`); `key` names the setting in the error.
    public init(parsing text: String, key: String) throws(ConfigurationError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw ConfigurationError(key: key, problem: "unix: needs a path") }
            self = .unix(path: path)
            return
        }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ConfigurationError(key: key, problem: "\"\(text)\" must be [IPV6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ConfigurationError(
                    key: key, problem: "\"\(text)\" must be unix:PATH, HOST:PORT or [IPV6]:PORT (127.0.0.1:3000)")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw ConfigurationError(key: key, problem: "\"\(text)\" needs a port from 1 to 65535")
        }
        guard Self.isLoopback(String(host)) else {
            throw ConfigurationError(
                key: key,
                problem:
                    "\(host) is not a loopback address: the Mastodon API is served only on 127.0.0.0/8, ::1 or "
                    + "localhost (a Unix socket or an SSH tunnel reaches it from elsewhere)")
        }
        self = .tcp(host: String(host), port: port)
    }

    /// True for `localhost`, an IPv4 address in 127.0.0.0/8 and `::1` (in any of its spellings).
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4 {
            let octets = parts.compactMap { UInt8($0) }
            return octets.count == 4 && octets[0] == 127
        }
        return isIPv6Loopback(lowered)
    }

    /// `::1`, `0:0:0:0:0:0:0:1` and the like: every group zero but a last one of 1.
    private static func isIPv6Loopback(_ host: String) -> Bool {
        guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" }) else { return false }
        let halves = host.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        let groups = halves.map { $0.split(separator: ":", omittingEmptySubsequences: true) }
        let all = groups.flatMap { $0 }
        guard let last = all.last, all.count <= 8, halves.count == 2 || all.count == 8 else { return false }
        guard all.allSatisfy({ $0.count <= 4 }), UInt16(last, radix: 16) == 1 else { return false }
        return all.dropLast().allSatisfy { UInt16($0, radix: 16) == 0 }
    }
}

/// `[http]`: where the Mastodon API is served and which `Host` names it answers to.
public struct HTTPSettings: Sendable, Equatable {
    /// The addresses to listen on; nil for the default, `http.sock` beside the RPC socket.
    public var listen: [HTTPListenAddress]?
    /// Host names besides `localhost` and the loopback addresses that the `Host` header may carry (a name an
    /// operator points at 127.0.0.1 in /etc/hosts); anything else is refused, against DNS rebinding.
    public var hosts: [String] = []

    /// The default: `http.sock` beside the RPC socket, no extra host name.
    public init() {}

    /// The addresses served when the RPC socket is at `socketPath`.
    public func addresses(socketPath: String) -> [HTTPListenAddress] {
        if let listen { return listen }
        let folder = socketPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return [.unix(path: (folder.isEmpty && !socketPath.hasPrefix("/") ? "" : folder + "/") + "http.sock")]
    }
}
