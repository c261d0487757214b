import ArgumentParser
import Foundation
import TwitterSQLite
import TwitterServer

/// `twitterd backup`: a consistent copy of the database, taken while the daemon serves.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database, while the daemon serves, into a file.",
        discussion: """
            Takes a snapshot with SQLite's online backup API: every post answered before the backup started is in \
            it. Writes DEST (mode 0600), the token key beside it as DEST.token.key and the messages key as \
            DEST.messages.key (without it, the sealed messages in the copy cannot be read), checks the copy with \
            PRAGMA integrity_check, and prints what it wrote. With --keep N, DEST is a folder: the backup gets a \
            dated name in it, and all but the newest N such backups are deleted.
            """
    )

    @OptionGroup var options: DatabaseOptions

    @Flag(help: "Replace DEST and DEST.token.key when they exist.")
    var force = false

    @Option(help: "Treat DEST as a folder of dated backups and keep only the newest N of them.")
    var keep: Int?

    @Argument(help: "The backup file to write (a folder with --keep).")
    var destination: String

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
    }

    func run() throws {
        try reportingFailures {
            let databasePath = try options.databasePath()
            let target = try keep == nil ? destination : BackupFolder(path: destination).newBackupPath()
            try write(databasePath: databasePath, to: target)
            if let keep {
                for removed in try BackupFolder(path: destination).prune(keeping: keep) {
                    print("removed old backup \(removed)")
                }
            }
        }
    }

    private func write(databasePath: String, to target: String) throws {
        let keyTarget = target + ".token.key"
        let messagesKeyTarget = target + ".messages.key"
        if Self.isSameFile(target, databasePath) {
            throw MaintenanceFailure("\(target) is the database itself; back it up into another file")
        }
        if !force {
            for path in [target, keyTarget, messagesKeyTarget] where PrivateFileWriter.exists(path) {
                throw MaintenanceFailure("\(path) exists; add --force to replace it")
            }
        }
        let source = try DatabaseFile.open(path: databasePath)
        defer { try? source.close() }
        let temporary = try PrivateFileWriter.makeTemporary(near: target)
        let summary = try PrivateFileWriter.removing(temporary) {
            try source.backup(to: temporary)
            return try DatabaseSummary(checking: temporary, named: "the copy of \(databasePath)")
        }
        // The key first: a file named like a backup then always has its key beside it.
        let keyPath = StateFolder.tokenKeyPath(databasePath: databasePath)
        let copiedKey = PrivateFileWriter.exists(keyPath)
        let messagesKeyPath = StateFolder.messagesKeyPath(databasePath: databasePath)
        let copiedMessagesKey = PrivateFileWriter.exists(messagesKeyPath)
        try PrivateFileWriter.removing(temporary) {
            if copiedKey { try PrivateFileWriter.copy(keyPath, to: keyTarget, replacing: force) }
            if copiedMessagesKey {
                try PrivateFileWriter.copy(messagesKeyPath, to: messagesKeyTarget, replacing: force)
            }
            try PrivateFileWriter.publish(temporary, as: target, replacing: force)
        }
        print("backed up \(databasePath)")
        print("  wrote \(target): \(summary.contents)")
        if copiedKey {
            print("  wrote \(keyTarget): the token key")
        } else {
            warn("no token key at \(keyPath) to copy: tokens issued by this database cannot be checked without it")
        }
        if copiedMessagesKey { print("  wrote \(messagesKeyTarget): the messages key") }
        print("  integrity_check: ok")
    }

    /// Whether both paths name one existing file, however they are spelled.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var one = stat()
        var two = stat()
        guard stat(first, &one) == 0, stat(second, &two) == 0 else { return false }
        return one.st_dev == two.st_dev && one.st_ino == two.st_ino
    }
}

/// What a backup or restore wrote, read back from the written file: it must pass `PRAGMA integrity_check`.
struct DatabaseSummary {
    let bytes: Int64
    let counts: DatabaseFile.Counts

    /// Opens the file at `path` read-only, checks it, and counts its accounts and tweets; throws naming the
    /// file (as `name` when given) and the first problems when the check finds any.
    init(checking path: String, named name: String? = nil) throws {
        let name = name ?? path
        let file = try DatabaseFile.open(path: path)
        defer { try? file.close() }
        let findings: [String]
        do {
            findings = try file.integrityCheck()
        } catch {
            // A file damaged where the check starts reading fails it outright rather than with findings.
            throw MaintenanceFailure("\(name) fails PRAGMA integrity_check: \(error)")
        }
        guard findings == ["ok"] else {
            throw MaintenanceFailure(
                "\(name) fails PRAGMA integrity_check: \(findings.prefix(3).joined(separator: "; "))")
        }
        counts = try file.counts()
        guard counts.users != nil, counts.tweets != nil else {
            throw MaintenanceFailure("\(name) is not a twitterd database: it has no user or tweet table")
        }
        bytes = PrivateFileWriter.size(of: path) ?? 0
    }

    /// `123456 bytes, 3 users, 1000 tweets`.
    var contents: String {
        "\(bytes) bytes, \(counts.users ?? 0) users, \(counts.tweets ?? 0) tweets"
    }
}
