import Foundation
import TestSupport
import Testing

@testable import TwitterServer

/// The lock that keeps `twitterd restore` and `seed` away from a database a daemon serves.
@Suite(.serialized) struct DatabaseLockTests {
    static func database() throws -> String {
        try TemporaryDirectory.make(prefix: "twd-lock") + "/twitterd.sqlite"
    }

    @Test func aSecondHolderIsRefusedAndToldTheFirstHoldersPid() throws {
        let database = try Self.database()
        let first = try DatabaseLock(databasePath: database)
        // flock locks belong to open files, not processes: a second open in this process is refused too.
        #expect(throws: DatabaseLock.Failure.held(path: database + ".lock", pid: getpid())) {
            _ = try DatabaseLock(databasePath: database)
        }
        withExtendedLifetime(first) {}
    }

    @Test func releasingTheLockLetsTheNextHolderIn() throws {
        let database = try Self.database()
        do {
            let first = try DatabaseLock(databasePath: database)
            withExtendedLifetime(first) {}
        }
        let second = try DatabaseLock(databasePath: database)
        #expect(second.path == database + ".lock")
    }

    @Test func theLockFileIsPrivateAndHoldsThePid() throws {
        let database = try Self.database()
        let previous = umask(0o000)
        defer { umask(previous) }
        let lock = try DatabaseLock(databasePath: database)
        var status = stat()
        #expect(stat(lock.path, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o600)
        #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == "\(getpid())\n")
    }

    @Test func aLockFileLeftByAnEarlierHolderIsTakenOver() throws {
        let database = try Self.database()
        // What a killed daemon leaves: the file with its pid, and no lock.
        try "999999\n".write(toFile: database + ".lock", atomically: false, encoding: .utf8)
        let lock = try DatabaseLock(databasePath: database)
        #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == "\(getpid())\n")
    }

    @Test func aFolderThatCannotHoldTheLockFileIsAnError() throws {
        #expect(throws: DatabaseLock.Failure.self) {
            _ = try DatabaseLock(databasePath: "/nonexistent-twitterd-folder/twitterd.sqlite")
        }
    }
}
