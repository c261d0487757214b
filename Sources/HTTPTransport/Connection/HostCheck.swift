import TwitterServer

/// The `Host` header's check against DNS rebinding: a web page whose name an attacker points at 127.0.0.1 must
/// not reach the API with the browser's help, so only `localhost`, the loopback addresses and the operator's
/// `[http] hosts` are answered, with or without a port.
struct HostCheck: Sendable {
    /// The extra names, lower case.
    let hosts: Set<String>

    init(hosts: [String]) {
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// True when `header` names this daemon.
    func allows(_ header: String?) -> Bool {
        guard let header, let name = Self.hostName(header.lowercased()) else { return false }
        return HTTPListenAddress.isLoopback(name) || hosts.contains(name)
    }

    /// The name without its port: `[::1]:3000` is `::1`, `localhost:3000` is `localhost`; nil for a malformed
    /// header.
    static func hostName(_ header: String) -> String? {
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return nil }
            let rest = header[header.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && Int(rest.dropFirst()) != nil) else { return nil }
            return String(header[header.index(after: header.startIndex)..<close])
        }
        // By bytes: splitting by `Character` was 3,900 instructions a request (callgrind).
        guard let colon = header.utf8.firstIndex(of: UInt8(ascii: ":")) else { return header.isEmpty ? nil : header }
        let port = header[header.utf8.index(after: colon)...]
        guard colon > header.startIndex, !port.utf8.contains(UInt8(ascii: ":")), Int(port) != nil else { return nil }
        return String(header[..<colon])
    }
}
