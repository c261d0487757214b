import Foundation
import Glibc

/// Makes a socket path ready for binding without ever taking it from a live daemon.
///
/// NIO's `cleanupExistingSocketFile` unlinks whatever is there, including a running daemon's socket; this
/// connects first, and only a path nobody answers on is treated as stale and removed.
public enum SocketPathGuard {
    /// Why the path cannot be used.
    public struct Refusal: Error, CustomStringConvertible {
        /// What is wrong with the path.
        public let description: String

        /// A refusal saying `description`.
        public init(description: String) {
            self.description = description
        }
    }

    /// Creates the parent folder when missing, refuses a live socket or a non-socket file, removes a stale one.
    public static func prepare(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755]
            )
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw Refusal(description: "\(path) exists and is not a socket; refusing to replace it")
        }
        if isAnswering(path: path) {
            throw Refusal(description: "another twitterd is serving \(path)")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw Refusal(description: "cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// True when something accepts connections on the socket at `path`.
    public static func isAnswering(path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // EAGAIN means a live listener whose backlog is full: still a live daemon.
        return result == 0 || errno == EAGAIN
    }
}
