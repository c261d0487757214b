import Foundation
import Glibc

/// Keeps the daemon's state private whatever the umask: the folder of the database is 0700 and the database,
/// its `-wal`, `-shm` and `-journal`, and `token.key` are 0600, because they hold every password hash and
/// token hash, which a copy lets anyone attack offline.
///
/// A folder or file made by an earlier version or by hand that others can read is tightened, and the change
/// is returned so start-up can log it; refusing to start instead (as PostgreSQL does) would take a running
/// service down on upgrade for a fault the daemon can mend itself. A folder the daemon does not own, or a
/// sticky one such as /tmp, is shared on purpose and is left as it is: the files in it are still private.
public enum StateFolder {
    /// One mode the daemon changed, or could not, for the log.
    public struct Change: Sendable, Equatable, CustomStringConvertible {
        /// The folder or file.
        public let path: String
        /// Its mode before, such as 0o644.
        public let oldMode: mode_t
        /// Its mode now.
        public let newMode: mode_t

        /// `PATH: 0644 -> 0600`, or `left 0755` when it was shared on purpose.
        public var description: String {
            oldMode == newMode
                ? "\(path): left \(Self.octal(oldMode)) (not ours alone)"
                : "\(path): \(Self.octal(oldMode)) -> \(Self.octal(newMode))"
        }

        static func octal(_ mode: mode_t) -> String { "0" + String(mode & 0o7777, radix: 8) }
    }

    /// A folder or file that cannot be made private.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The files next to the database that hold secrets.
    static func privateFiles(databasePath: String) -> [String] {
        [databasePath, databasePath + "-wal", databasePath + "-shm", databasePath + "-journal"]
            + [tokenKeyPath(databasePath: databasePath), messagesKeyPath(databasePath: databasePath)]
    }

    /// The key message texts are sealed with, kept beside the database as the token key is: backups copy it and
    /// restores put it back here.
    public static func messagesKeyPath(databasePath: String) -> String {
        let folder = (databasePath as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/messages.key"
    }

    /// The token hash key kept beside the database: backups copy it and restores put it back here.
    public static func tokenKeyPath(databasePath: String) -> String {
        let folder = (databasePath as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/token.key"
    }

    /// Creates the database's folder (0700) and file (0600) when missing, and tightens what others can read.
    /// SQLite gives the `-wal` and `-shm` files it creates later the database file's mode.
    @discardableResult
    public static func prepare(databasePath: String) throws -> [Change] {
        var changes = try prepareFolder(databasePath: databasePath)
        let descriptor = open(databasePath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // The umask may have taken bits away, never added them; fchmod makes it exactly 0600 anyway.
            fchmod(descriptor, 0o600)
            close(descriptor)
        } else if errno != EEXIST {
            throw Failure(description: "cannot create \(databasePath): \(String(cString: strerror(errno)))")
        }
        for path in privateFiles(databasePath: databasePath) {
            if let change = try tighten(path, to: 0o600) { changes.append(change) }
        }
        return changes
    }

    /// Only the folder part of `prepare`: creates the database's folder (0700) or tightens it. The daemon does
    /// this before it makes the socket, which may share the folder, and the files after it has checked that no
    /// other daemon serves that socket.
    public static func prepareFolder(databasePath: String) throws -> [Change] {
        let folder = (databasePath as NSString).deletingLastPathComponent
        guard !folder.isEmpty, let change = try prepareFolder(folder) else { return [] }
        return [change]
    }

    private static func prepareFolder(_ folder: String) throws -> Change? {
        var status = stat()
        guard stat(folder, &status) == 0 else {
            let parent = (folder as NSString).deletingLastPathComponent
            if !parent.isEmpty {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            }
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST, chmod(folder, 0o700) == 0 else {
                throw Failure(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
            return nil
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o077 != 0 else { return nil }
        guard status.st_uid == geteuid(), mode & S_ISVTX == 0 else {
            return Change(path: folder, oldMode: mode, newMode: mode)
        }
        return try tighten(folder, to: 0o700)
    }

    private static func tighten(_ path: String, to wanted: mode_t) throws -> Change? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let mode = status.st_mode & 0o7777
        guard mode & 0o077 != 0 else { return nil }
        let tightened = mode & wanted
        guard chmod(path, tightened) == 0 else {
            throw Failure(description: "cannot make \(path) private: \(String(cString: strerror(errno)))")
        }
        return Change(path: path, oldMode: mode, newMode: tightened)
    }
}
