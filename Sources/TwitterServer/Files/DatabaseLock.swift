import Foundation
import Glibc

/// An exclusive `flock` on `<database>.lock`, held by whoever may change the database file as a whole: the
/// serving daemon for its lifetime, and `twitterd restore` and `twitterd seed` while they run.
///
/// SQLite's own locks cannot tell a restore that a daemon has the file open: in WAL mode a reader holds no lock
/// between transactions. The kernel releases a `flock` when its holder exits, however it exits, so a lock file
/// left behind by a killed daemon never blocks anyone; the file itself is not the lock and is never removed
/// (removing it would let two holders lock two different files of the same name).
///
/// The holder writes its pid into the file, so a refusal can name the process in the way.
public final class DatabaseLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// The lock file's path for the database at `databasePath`.
    public static func path(databasePath: String) -> String { databasePath + ".lock" }

    /// Takes the lock of the database at `databasePath` without waiting, creating the lock file (0600) when
    /// missing; throws `Failure.held` naming the holder's pid when another process has it.
    public init(databasePath: String) throws(Failure) {
        let path = Self.path(databasePath: databasePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw .unusable(path: path, reason: String(cString: strerror(errno)))
        }
        // It holds only a pid, but lives among the secrets: the same mode keeps the folder uniform.
        fchmod(descriptor, 0o600)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = Self.holder(descriptor: descriptor)
            close(descriptor)
            if reason == EWOULDBLOCK { throw .held(path: path, pid: holder) }
            throw .unusable(path: path, reason: String(cString: strerror(reason)))
        }
        let pid = Array("\(getpid())\n".utf8)
        // The pid is a courtesy for the refusal message; the lock holds whether or not it is written.
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        // Closing the only descriptor releases the lock.
        close(descriptor)
    }

    /// The pid written into the lock file by its holder, when there is one.
    private static func holder(descriptor: Int32) -> pid_t? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Why the lock could not be taken.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another process holds it: a serving daemon, a restore or a seed. `pid` is nil when it wrote none.
        case held(path: String, pid: pid_t?)
        /// The lock file cannot be opened or locked at all.
        case unusable(path: String, reason: String)

        /// One line for an operator.
        public var description: String {
            switch self {
            case .held(let path, let pid):
                "\(pid.map { "process \($0)" } ?? "another process") holds \(path): a twitterd serving this "
                    + "database, or a restore or seed of it"
            case .unusable(let path, let reason): "cannot lock \(path): \(reason)"
            }
        }
    }
}
