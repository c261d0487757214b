import ArgumentParser
import Foundation
import TwitterSQLite
import TwitterServer

/// `twitterd restore`: replaces the daemon's database with a backup, while no daemon serves it.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with a backup, while the daemon is stopped.",
        discussion: """
            Checks SRC with PRAGMA integrity_check, then replaces the database in one rename, and puts \
            SRC.token.key back as the daemon's token key when it is there. Refuses while a twitterd serves the \
            database (exit status 75): stop the service and its socket first. An existing database is replaced \
            only with --force.
            """
    )

    @OptionGroup var options: DatabaseOptions

    @Flag(help: "Replace an existing database.")
    var force = false

    @Argument(help: "The backup file to restore.")
    var source: String

    func run() throws {
        try reportingFailures {
            let databasePath = try options.databasePath()
            try restore(into: databasePath)
        }
    }

    private func restore(into databasePath: String) throws {
        if Backup.isSameFile(source, databasePath) {
            throw MaintenanceFailure("\(source) is the database itself")
        }
        // The check comes first and needs no lock: a damaged backup is refused whether or not a daemon runs.
        let summary = try DatabaseSummary(checking: source)
        _ = try StateFolder.prepareFolder(databasePath: databasePath)
        let lock: DatabaseLock
        do {
            lock = try DatabaseLock(databasePath: databasePath)
        } catch {
            throw Self.refusal(error, databasePath: databasePath)
        }
        // Held until the new file and key are in place, so no daemon can open the database halfway.
        defer { withExtendedLifetime(lock) {} }
        if !force, PrivateFileWriter.size(of: databasePath).map({ $0 > 0 }) == true {
            throw MaintenanceFailure("\(databasePath) exists; add --force to replace it with \(source)")
        }
        let temporary = try PrivateFileWriter.makeTemporary(near: databasePath)
        try PrivateFileWriter.removing(temporary) {
            // Through SQLite rather than a byte copy: a source in WAL mode is read with its -wal file.
            let file = try DatabaseFile.open(path: source)
            defer { try? file.close() }
            try file.backup(to: temporary)
            try Self.giveToFolderOwner(temporary, folder: PrivateFileWriter.folder(of: databasePath))
            // Before the rename, never after: SQLite would replay an old -wal into the new file.
            for suffix in ["-wal", "-shm", "-journal"] {
                guard unlink(databasePath + suffix) == 0 || errno == ENOENT else {
                    throw MaintenanceFailure(
                        "cannot remove \(databasePath + suffix): \(String(cString: strerror(errno)))")
                }
            }
            try PrivateFileWriter.publish(temporary, as: databasePath, replacing: true)
        }
        print("restored \(source) (\(summary.contents), integrity_check ok)")
        print("  into \(databasePath)")
        let keyPath = StateFolder.tokenKeyPath(databasePath: databasePath)
        if try !restoreKey(".token.key", named: "token key", to: keyPath, databasePath: databasePath) {
            warn("no \(source).token.key: \(keyPath) is kept, and tokens saved in the backup will not be accepted")
        }
        let messagesKeyPath = StateFolder.messagesKeyPath(databasePath: databasePath)
        _ = try restoreKey(".messages.key", named: "messages key", to: messagesKeyPath, databasePath: databasePath)
    }

    /// Puts the key kept beside the backup as `suffix` (`.token.key`) back at `keyPath`; false when the backup
    /// has none.
    private func restoreKey(_ suffix: String, named name: String, to keyPath: String, databasePath: String) throws
        -> Bool
    {
        let keySource = source + suffix
        guard PrivateFileWriter.exists(keySource) else { return false }
        try PrivateFileWriter.copy(keySource, to: keyPath, replacing: true)
        try Self.giveToFolderOwner(keyPath, folder: PrivateFileWriter.folder(of: databasePath))
        print("  \(name) \(keySource) into \(keyPath)")
        return true
    }

    private static func refusal(_ failure: DatabaseLock.Failure, databasePath: String) -> MaintenanceFailure {
        guard case .held(_, let pid) = failure else { return MaintenanceFailure("\(failure)") }
        return MaintenanceFailure(
            exitCode: MaintenanceFailure.busy,
            message: "refusing to restore: \(pid.map { "twitterd (pid \($0))" } ?? "a twitterd") is serving "
                + "\(databasePath), or a restore or seed of it is running; stop it first "
                + "(systemctl stop twitterd.socket twitterd.service)")
    }

    /// Run as root (`sudo twitterd restore`), the new files would belong to root and the daemon, running as
    /// its own user, could not open them: they are given to the owner of the state folder instead.
    private static func giveToFolderOwner(_ path: String, folder: String) throws {
        guard geteuid() == 0 else { return }
        var status = stat()
        guard stat(folder, &status) == 0, chown(path, status.st_uid, status.st_gid) == 0 else {
            throw MaintenanceFailure(
                "cannot give \(path) to the owner of \(folder): \(String(cString: strerror(errno)))")
        }
    }
}
