import Foundation
import TestSupport
import Testing

@testable import TwitterServer

/// Backups and restores never leave a half file under a final name, and never replace a file unasked.
@Suite(.serialized) struct PrivateFileWriterTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    @Test func aTemporaryFileIsPrivateHiddenAndBesideItsDestination() throws {
        let folder = try TemporaryDirectory.make(prefix: "twd-files")
        let previous = umask(0o000)
        defer { umask(previous) }
        let temporary = try PrivateFileWriter.makeTemporary(near: folder + "/backup.sqlite")
        #expect(temporary.hasPrefix(folder + "/.backup.sqlite."))
        #expect(Self.mode(temporary) == 0o600)
    }

    @Test func publishingRefusesATakenNameUnlessToldToReplaceIt() throws {
        let folder = try TemporaryDirectory.make(prefix: "twd-files")
        let destination = folder + "/backup.sqlite"
        try "old".write(toFile: destination, atomically: false, encoding: .utf8)
        let temporary = try PrivateFileWriter.makeTemporary(near: destination)
        try "new".write(toFile: temporary, atomically: false, encoding: .utf8)
        #expect(throws: PrivateFileWriter.Failure.self) {
            try PrivateFileWriter.publish(temporary, as: destination, replacing: false)
        }
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "old")
        try PrivateFileWriter.publish(temporary, as: destination, replacing: true)
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["backup.sqlite"])
    }

    @Test func aCopyIsPrivateWhateverTheSourcesMode() throws {
        let folder = try TemporaryDirectory.make(prefix: "twd-files")
        try "key".write(toFile: folder + "/token.key", atomically: false, encoding: .utf8)
        chmod(folder + "/token.key", 0o644)
        try PrivateFileWriter.copy(folder + "/token.key", to: folder + "/b.sqlite.token.key", replacing: false)
        #expect(Self.mode(folder + "/b.sqlite.token.key") == 0o600)
        #expect(try String(contentsOfFile: folder + "/b.sqlite.token.key", encoding: .utf8) == "key")
        #expect(throws: PrivateFileWriter.Failure.self) {
            try PrivateFileWriter.copy(folder + "/token.key", to: folder + "/b.sqlite.token.key", replacing: false)
        }
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["token.key", "b.sqlite.token.key"])
    }
}
