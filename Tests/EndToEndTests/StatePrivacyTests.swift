import Foundation
import TestSupport
import Testing
import TwitterClient

/// The database holds every password hash and token hash: the daemon keeps it and its folder private whatever
/// umask it was started with, and tightens what an earlier start left open, saying so.
@Suite(.serialized) struct StatePrivacyTests {
    /// Runs the daemon under umask 022, the usual one of a login shell.
    static let openUmask = ["/bin/sh", "-c", "umask 022 && exec \"$@\"", "sh"]

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    @Test func theDatabaseIsPrivateUnderAnOpenUmaskAndLooseModesAreTightenedWithANotice() async throws {
        let directory = try TemporaryDirectory.make()
        let sockets = try TemporaryDirectory.make()
        #expect(Self.mode(directory) == 0o755)
        let first = try await DaemonProcess(
            directory: directory, socketDirectory: sockets, configuration: DaemonProcess.fastHashing,
            launcher: Self.openUmask)
        _ = try await RPCConnection.withConnection(socketPath: first.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        #expect(Self.mode(directory) == 0o700)
        for file in ["twitterd.sqlite", "twitterd.sqlite-wal", "twitterd.sqlite-shm", "token.key"] {
            #expect(Self.mode(directory + "/" + file) == 0o600, "\(file)")
        }
        #expect(first.log.contains("state made private"))
        #expect(first.log.contains("\(directory): 0755 -> 0700"))
        #expect(first.stop() == 0)

        // As an earlier version, or a hand-made copy, would have left them.
        chmod(directory, 0o755)
        chmod(first.databasePath, 0o644)
        let second = try await DaemonProcess(
            directory: directory, socketDirectory: sockets, configuration: DaemonProcess.fastHashing,
            launcher: Self.openUmask)
        #expect(second.log.contains("\(second.databasePath): 0644 -> 0600"))
        #expect(second.log.contains("\(directory): 0755 -> 0700"))
        #expect(Self.mode(second.databasePath) == 0o600)
        #expect(Self.mode(directory) == 0o700)
        #expect(second.stop() == 0)
    }
}
