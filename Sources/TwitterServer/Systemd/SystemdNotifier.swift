import Glibc

/// sd_notify without libsystemd: datagrams to `$NOTIFY_SOCKET`, a path or an abstract (`@`) socket name.
///
/// When the variable is unset (not run by systemd) every call does nothing.
public struct SystemdNotifier: Sendable {
    private let socketName: String?

    /// Reads `NOTIFY_SOCKET` from `environment`.
    public init(environment: [String: String]) {
        socketName = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// True when systemd (or a test) listens for notifications.
    public var isEnabled: Bool { socketName != nil }

    /// Sends `READY=1`: the socket listens and the database is migrated.
    public func ready(status: String) {
        send("READY=1\nSTATUS=\(status)")
    }

    /// Sends `STATUS=…`, shown by `systemctl status`.
    public func status(_ text: String) {
        send("STATUS=\(text)")
    }

    /// Sends `STOPPING=1`.
    public func stopping() {
        send("STOPPING=1\nSTATUS=stopping")
    }

    /// Sends `WATCHDOG=1` with a fresh `STATUS=`.
    public func watchdog(status: String) {
        send("WATCHDOG=1\nSTATUS=\(status)")
    }

    /// Sends one datagram; failures are ignored, as sd_notify's callers do, since systemd may be gone.
    public func send(_ message: String) {
        guard let socketName else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketName.utf8)
        // An abstract socket name starts with a NUL byte in place of systemd's "@".
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
    }
}
