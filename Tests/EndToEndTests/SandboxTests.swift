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

    /// libdispatch gives each worker thread the nice value of its queue's QoS, and logs every refusal. Unprivileged,
    /// with RLIMIT_NICE at 0 (a sandboxed systemd cannot always raise it), a start that reads and writes the
    /// database used to log "Failed to set thread priority for worker thread ... errno=13" once per thread of
    /// GRDB's queues (.userInitiated, nice -2). They run at the default QoS now; what may remain is the one thread
    /// of libdispatch's own event manager (nice -4), which every timer of Swift's concurrency needs, and which the
    /// unit's LimitNICE=-4 grants.
    @Test(.enabled(if: geteuid() == 0, "setpriv --reuid=nobody needs root"))
    func theDatabaseThreadsAskForNoRaisedPriority() async throws {
        let directory = try TemporaryDirectory.make()
        chmod(directory, 0o777)
        let twitterd = try BuiltProducts.copy("twitterd", into: directory)
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing,
            environment: ["LIBDISPATCH_LOG": "stderr"],
            launcher: [
                "/usr/bin/prlimit", "--nice=0:0", "--",
                "/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--no-new-privs", "--",
            ], executable: twitterd
        )
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(
            #"{"jsonrpc":"2.0","method":"auth.signup","params":{"email":"nice@example.com","password":"correct horse battery"},"id":1}"#
                + "\n")
        #expect(socket.readLine()?.contains("\"result\"") == true)
        for id in 2...5 {
            socket.send(#"{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"post \#(id)"},"id":\#(id)}"# + "\n")
            #expect(socket.readLine()?.contains("\"result\"") == true)
        }
        socket.send(#"{"jsonrpc":"2.0","method":"tweets.fetch","params":{"author":"nice"},"id":6}"# + "\n")
        #expect(socket.readLine()?.contains("post 5") == true)
        #expect(daemon.stop() == 0)
        let refusals = daemon.log.split(separator: "\n").filter { $0.contains("Failed to set thread priority") }
        #expect(refusals.count <= 1, "\(refusals)")
    }
}
