import Foundation

/// A datagram socket standing in for systemd's notify socket: the daemon's READY=1 is the event tests wait
/// for instead of sleeping.
public final class NotifyListener: @unchecked Sendable {
    // @unchecked: the descriptor is only read after init and closed once in deinit; reads are sequential in
    // the one test that owns the listener.
    /// The socket's path, for NOTIFY_SOCKET.
    public let path: String
    private let descriptor: Int32

    /// Binds a datagram socket at `path`.
    public init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = UnixAddress(path: path)
        guard address.bind(descriptor) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Writable by everyone, so a daemon started as another user can still report READY=1.
        chmod(path, 0o666)
        // Short reads let a waiting test notice a daemon that died instead of blocking for long.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram, or nil after 1 s without one.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// The next datagram, or nil after 1 s without one, read on a thread of its own (see `waitFor`).
    public func next() async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.receive()) }.start()
        }
    }

    /// Waits (up to `seconds`, and only while `keepWaiting` holds) for a datagram holding `line`, such as
    /// "READY=1"; returns every datagram seen until then, or nil.
    ///
    /// The blocking reads run on a thread of their own, not on one of the few threads Swift's concurrency gives
    /// every test of the run: blocked there by daemons starting in parallel tests, they stalled other tests'
    /// clients for seconds (a test that pings while logins hash saw every login finish first).
    public func waitFor(
        _ line: String, seconds: Int = 60, while keepWaiting: @escaping @Sendable () -> Bool = { true }
    ) async -> [String]? {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: self.blockingWait(for: line, seconds: seconds, while: keepWaiting))
            }
            .start()
        }
    }

    private func blockingWait(for line: String, seconds: Int, while keepWaiting: () -> Bool) -> [String]? {
        var seen: [String] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            guard let message = receive() else {
                if !keepWaiting() { return nil }
                continue
            }
            seen.append(message)
            if message.split(separator: "\n").contains(Substring(line)) { return seen }
        }
        return nil
    }
}
