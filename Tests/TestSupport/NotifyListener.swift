import Foundation

/// A datagram socket standing in for systemd's notify socket: the daemon's READY=1 is the event tests wait
/// for instead of sleeping.
public final class NotifyListener: @unchecked Sendable {
    // @unchecked: the descriptor is only read after init and closed once in deinit; reads are sequential in
    // the one test that owns the listener.
    public let path: String
    private let descriptor: Int32

    /// Binds a datagram socket at `path`.
    public init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = UnixAddress(path: path)
        guard address.bind(descriptor) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram, or nil after 60 s without one.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Waits for a datagram holding `line` (such as "READY=1") and returns every datagram seen until then.
    public func waitFor(_ line: String) -> [String]? {
        var seen: [String] = []
        while let message = receive() {
            seen.append(message)
            if message.split(separator: "\n").contains(Substring(line)) { return seen }
        }
        return nil
    }
}
