import Foundation
import Glibc

/// Writes private files (0600) so that a reader never sees half of one under its final name: the content goes
/// to a temporary file in the destination's folder, is synced, and is then moved into place by one rename, and
/// the folder is synced so the new name survives a power cut too.
///
/// Backups and restores write through it: a backup interrupted by a full disk or a kill leaves at most a
/// `.NAME.XXXXXX` file behind, never a truncated file named like a good backup or database.
public enum PrivateFileWriter {
    /// A file operation that failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, naming the path.
        public let description: String
    }

    /// Creates an empty 0600 file with a unique hidden name in the folder of `destination`, and returns its path.
    public static func makeTemporary(near destination: String) throws(Failure) -> String {
        let folder = folder(of: destination)
        let name = (destination as NSString).lastPathComponent
        var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            // mkstemp makes the file 0600 whatever the umask, and fails rather than follow a planted link.
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw Failure(description: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        return template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
    }

    /// Syncs the temporary file `temporary` and gives it the name `destination`. Without `replacing`, an
    /// existing `destination` is an error and stays untouched: the file is linked under its new name, which
    /// fails when the name is taken, where a rename would silently replace it.
    public static func publish(_ temporary: String, as destination: String, replacing: Bool) throws(Failure) {
        try sync(temporary)
        if replacing {
            guard rename(temporary, destination) == 0 else {
                throw Failure(description: "cannot rename \(temporary) to \(destination): \(errorText())")
            }
        } else if link(temporary, destination) == 0 {
            unlink(temporary)
        } else {
            let reason = errno
            let noHardLinks = reason == EPERM || reason == EOPNOTSUPP
            guard reason != EEXIST, !(noHardLinks && exists(destination)) else {
                throw Failure(description: "cannot create \(destination): it exists")
            }
            // A file system without hard links (a FAT backup disk): the check and the rename are two steps there.
            guard noHardLinks, rename(temporary, destination) == 0 else {
                throw Failure(description: "cannot create \(destination): \(errorText())")
            }
        }
        try sync(folder(of: destination))
    }

    /// Copies the small file `source` (such as a token key) to `destination` as a private file, through a
    /// temporary file and `publish`.
    public static func copy(_ source: String, to destination: String, replacing: Bool) throws(Failure) {
        guard let content = FileManager.default.contents(atPath: source) else {
            throw Failure(description: "cannot read \(source)")
        }
        let temporary = try makeTemporary(near: destination)
        try removing(temporary) { () throws(Failure) in
            try write(content, to: temporary)
            try publish(temporary, as: destination, replacing: replacing)
        }
    }

    /// Runs `body`, which fills the temporary file `temporary` and publishes it; when it throws, the file is
    /// removed, so a failed write leaves nothing behind.
    public static func removing<Result, BodyFailure: Error>(
        _ temporary: String, ifThrows body: () throws(BodyFailure) -> Result
    ) throws(BodyFailure) -> Result {
        do {
            return try body()
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Whether something (a file, a folder, a dangling link) has the name `path`.
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The size of the file at `path` in bytes, or nil when there is none.
    public static func size(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// The folder a relative or absolute `path` is in; "." for a bare name.
    public static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    private static func write(_ content: Data, to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): \(errorText())") }
        defer { close(descriptor) }
        let written = content.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == content.count else { throw Failure(description: "cannot write \(path): \(errorText())") }
    }

    /// fsync of a file or folder: a rename is durable only once the folder holding the new name is synced.
    private static func sync(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): \(errorText())") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(description: "cannot sync \(path): \(errorText())") }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
