import Foundation
import TestSupport
import Testing

@testable import TwitterSQLite

/// `FileIdentity`, the log syncer's check of which file it holds: the same device and inode as `stat` reads, and,
/// where the kernel gives fine-grained change times to files whose times were asked for (Linux 6.13's multigrain
/// timestamps), read without asking for them, so that the log's next write leaves its inode clean and its next
/// `fdatasync` writes no journal block.
struct FileIdentityTests {
    @Test func aNameAndADescriptorAreTheFileStatFinds() throws {
        let file = try ScratchFile()
        var status = stat()
        #expect(stat(file.path, &status) == 0)
        let byName = try FileIdentity(path: file.path)
        #expect(byName.device == UInt64(status.st_dev))
        #expect(byName.inode == UInt64(status.st_ino))
        #expect(try FileIdentity(descriptor: file.descriptor) == byName)
    }

    @Test func aFileMadeAgainUnderTheSameNameIsAnotherFile() throws {
        let file = try ScratchFile()
        let before = try FileIdentity(path: file.path)
        #expect(unlink(file.path) == 0)
        #expect(throws: FileIdentity.Failure(code: ENOENT), "no file of that name") {
            try FileIdentity(path: file.path)
        }
        let again = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(again >= 0)
        defer { _ = close(again) }
        #expect(try FileIdentity(path: file.path) != before)
        #expect(try FileIdentity(descriptor: file.descriptor) == before, "the descriptor still holds the first file")
        #expect(throws: FileIdentity.Failure(code: EBADF)) { try FileIdentity(descriptor: -1) }
    }

    /// Each trial writes, reads the file as the syncer does, reads the clock and writes again at once: the second
    /// write gives the file a time later than the clock only if the read asked for the time (a coarse tick is never
    /// later than the clock read before it). `stat` asks; on these kernels it does so in every trial, which is
    /// what enables the test.
    @Test(.enabled(if: MultigrainTimes.areGiven(), "the kernel gives no fine-grained change times (before Linux 6.13)"))
    func readingItLeavesTheFilesChangeTimeUnasked() throws {
        let file = try ScratchFile()
        let trials = 20
        let changedAfterIdentity = try (0..<trials).count { _ in
            try MultigrainTimes.secondWriteChangedTime(file) {
                _ = try? FileIdentity(path: file.path)
                _ = try? FileIdentity(descriptor: file.descriptor)
            }
        }
        #expect(changedAfterIdentity <= 2, "\(changedAfterIdentity) of \(trials) trials gave a fine-grained time")
    }
}

/// A file of its own in a folder of its own, removed with it.
final class ScratchFile {
    let folder: String
    let path: String
    let descriptor: Int32

    init() throws {
        folder = try TemporaryDirectory.make(prefix: "file-identity")
        path = folder + "/log"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit {
        _ = close(descriptor)
        try? FileManager.default.removeItem(atPath: folder)
    }

    func writeByte() throws {
        var byte: UInt8 = 1
        guard pwrite(descriptor, &byte, 1, 0) == 1 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }
}

/// Linux 6.13's multigrain timestamps: a file whose change time was asked for gets a fine-grained one at its next
/// change, later than any clock reading before it; otherwise its time moves only with the clock's coarse tick.
enum MultigrainTimes {
    /// Whether this kernel and file system give them: `stat` between two writes made the second one change the
    /// time in at least 18 of 20 trials.
    static func areGiven() -> Bool {
        guard let file = try? ScratchFile() else { return false }
        let changed = (0..<20).count { _ in
            (try? secondWriteChangedTime(file) {
                var status = stat()
                _ = stat(file.path, &status)
            }) == true
        }
        return changed >= 18
    }

    /// Asks for the time (so that the first write's is fine-grained), writes, runs `read`, reads the clock, writes
    /// again and asks for the time: whether it is later than the clock, so set by the second write, finely.
    static func secondWriteChangedTime(_ file: ScratchFile, after read: () -> Void) throws -> Bool {
        var status = stat()
        _ = stat(file.path, &status)
        try file.writeByte()
        read()
        var between = timespec()
        clock_gettime(CLOCK_REALTIME, &between)
        try file.writeByte()
        guard stat(file.path, &status) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let changed = status.st_ctim
        return (changed.tv_sec, changed.tv_nsec) > (between.tv_sec, between.tv_nsec)
    }
}
