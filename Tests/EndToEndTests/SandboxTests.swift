import Foundation
import JSONRPC
import TestSupport
import Testing

/// What the unit's sandbox takes away, taken away here by hand: no root, no capabilities, no new
/// privileges, no network, private IPC and hostname. The daemon must come up and serve all the same.
struct SandboxTests {
    @Test(.enabled(if: geteuid() == 0, "setpriv --reuid=nobody needs root"))
    func servesAsAnUnprivilegedUserWithoutNetworkOrCapabilities() async throws {
        let directory = try TemporaryDirectory.make()
        chmod(directory, 0o777)
        let twitterd = try BuiltProducts.copy("twitterd", into: directory)
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing,
            launcher: [
                "/usr/bin/unshare", "--net", "--ipc", "--uts", "--",
                "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--no-new-privs",
                "--inh-caps=-all", "--bounding-set=-all", "--",
            ], executable: twitterd
        )
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(
            #"{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"sandbox@example.com","password":"correct horse battery"},"id":1}"#
                + "\n")
        let signup = try JSONParser().parse(try #require(socket.readLine()))
        #expect(signup["result"]?["user"]?["username"] == "sandbox")
        var status = stat()
        #expect(stat(daemon.databasePath, &status) == 0)
        #expect(status.st_uid == 65534, "the database belongs to the unprivileged user")
        #expect(daemon.stop() == 0)
    }
}
