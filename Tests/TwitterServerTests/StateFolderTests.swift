import Foundation
import TestSupport
import Testing

@testable import TwitterServer

/// The database's folder and files end up private whatever the umask, and what others could read is tightened.
@Suite(.serialized) struct StateFolderTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    static func temporaryFolder() throws -> String {
        try TemporaryDirectory.make(prefix: "twd-state")
    }

    @Test func aNewFolderAndDatabaseArePrivateUnderAnOpenUmask() throws {
        let root = try Self.temporaryFolder()
        let previous = umask(0o022)
        defer { umask(previous) }
        let database = root + "/new/state/twitterd.sqlite"
        let changes = try StateFolder.prepare(databasePath: database)
        #expect(changes.isEmpty)
        #expect(Self.mode(root + "/new/state") == 0o700)
        #expect(Self.mode(database) == 0o600)
    }

    @Test func anOpenFolderAndItsSecretsAreTightenedAndReported() throws {
        let folder = try Self.temporaryFolder()
        chmod(folder, 0o755)
        let database = folder + "/twitterd.sqlite"
        for (name, mode) in [("twitterd.sqlite", 0o644), ("twitterd.sqlite-wal", 0o664), ("token.key", 0o640)] {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
            chmod(folder + "/" + name, mode_t(mode))
        }
        _ = FileManager.default.createFile(atPath: folder + "/notes.txt", contents: Data())
        chmod(folder + "/notes.txt", 0o644)

        let changes = try StateFolder.prepare(databasePath: database)

        #expect(
            changes.map(\.description).sorted()
                == [
                    "\(folder): 0755 -> 0700", "\(folder)/token.key: 0640 -> 0600",
                    "\(database): 0644 -> 0600", "\(database)-wal: 0664 -> 0600",
                ].sorted())
        #expect(Self.mode(folder) == 0o700)
        #expect(Self.mode(database) == 0o600)
        #expect(Self.mode(folder + "/notes.txt") == 0o644, "files that are not the daemon's are left alone")
        #expect(try StateFolder.prepare(databasePath: database).isEmpty, "a second start has nothing to do")
    }

    @Test func aStickySharedFolderIsLeftButTheDatabaseIsPrivate() throws {
        let folder = try Self.temporaryFolder()
        chmod(folder, 0o1777)
        let database = folder + "/twitterd.sqlite"
        let changes = try StateFolder.prepare(databasePath: database)
        #expect(changes.map(\.description) == ["\(folder): left 01777 (not ours alone)"])
        #expect(Self.mode(folder) == 0o1777)
        #expect(Self.mode(database) == 0o600)
    }
}
