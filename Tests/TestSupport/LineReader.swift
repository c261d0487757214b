import Foundation

/// Lines read from a pipe or socket as they come, each waited for with `poll` up to a time limit.
public final class LineReader: @unchecked Sendable {
    // @unchecked: one test owns it and reads from one task at a time; the buffer is touched only by `next`.
    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Reads from `descriptor`, which the caller keeps open.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line without its newline, waiting up to `seconds`; nil at the end of the stream or on timeout.
    public func next(seconds: Int32 = 60) -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, seconds * 1000) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }
}
