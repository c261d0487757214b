import Foundation

/// A plain blocking Unix-socket client for tests that need exact bytes: garbage, half-close, no newline.
///
/// Reads time out after 60 s so a broken daemon fails a test instead of hanging it.
public final class RawSocket: @unchecked Sendable {
    // @unchecked: each RawSocket is used by one test at a time; a writer thread and the reading test only
    // touch the descriptor through thread-safe system calls.
    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to `path`; throws the errno of connect (ENOENT, EACCES…) on failure.
    public init(path: String, timeoutSeconds: Int = 60) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = UnixAddress(path: path)
        guard address.connect(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Connects over TCP to `host` (an IPv4 or IPv6 address) at `port`.
    public init(host: String, port: Int, timeoutSeconds: Int = 60) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
            throw POSIXError(.EINVAL)
        }
        defer { freeaddrinfo(found) }
        descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        guard connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// The next `count` bytes; nil at EOF, on a reset, or after the timeout.
    public func readBytes(_ count: Int) -> [UInt8]? {
        while pending.count < count {
            guard fill() else { return nil }
        }
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    /// Writes every byte; false when the daemon closed the connection first.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes every byte, giving up when the socket accepts nothing for `stallAfterSeconds`; false then, or when
    /// the daemon closed the connection.
    public func send(_ bytes: [UInt8], stallAfterSeconds: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, stallAfterSeconds * 1000) > 0 else { return false }
            let written = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// True when the daemon has closed the connection (EOF or reset), checked without waiting.
    public func isClosedByPeer() -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN)
    }

    /// Writes a string as UTF-8.
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Shuts down the writing side: the daemon sees EOF but may still answer.
    public func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The next line without its newline; nil at EOF, on a reset, or after the timeout.
    public func readLine() -> String? {
        // Only the bytes that arrived since the last look are searched, so a line of many megabytes is read in
        // linear time.
        var searched = 0
        while true {
            if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            searched = pending.count
            guard fill() else { return nil }
        }
    }

    /// Every remaining line until EOF.
    public func readLinesUntilEOF() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines
    }

    /// True when the daemon closed the connection (EOF or reset) with nothing more to read.
    public func waitForClose() -> Bool {
        while true {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        pending.append(contentsOf: buffer[0..<count])
        return true
    }
}
