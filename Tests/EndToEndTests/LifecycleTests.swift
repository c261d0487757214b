import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Start-up, shutdown, the socket file, limits on connections, and concurrency across connections.
@Suite(.serialized) struct LifecycleTests {
    @Test func hundredConcurrentConnectionsAreServed() async throws {
        let daemon = try await DaemonProcess()
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                        _ = try await connection.call("system.ping")
                        return try await connection.call("system.health")
                    }
                }
            }
            var all: [JSONValue] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0["status"] == "ok" })
    }

    @Test func secondDaemonOnTheSamePathIsRefusedAndTheFirstServesOn() async throws {
        let first = try await DaemonProcess()
        let second = try runProduct(
            "twitterd", ["--socket", first.socketPath, "--database", first.directory + "/other.sqlite"]
        )
        #expect(second.status != 0)
        #expect(second.error.contains("another twitterd is serving \(first.socketPath)"))
        #expect(!FileManager.default.fileExists(atPath: first.directory + "/other.sqlite"))
        let socket = try RawSocket(path: first.socketPath)
        socket.send(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"# + "\n")
        #expect(socket.readLine() == #"{"id":1,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func staleSocketFileIsReplaced() async throws {
        let directory = try TemporaryDirectory.make()
        // A socket file with no listener behind it, as a crashed daemon leaves.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((directory + "/twitterd.sock").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        close(descriptor)
        let daemon = try await DaemonProcess(directory: directory)
        let client = try RawSocket(path: daemon.socketPath)
        client.send(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"# + "\n")
        #expect(client.readLine() == #"{"id":1,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func socketHasTheConfiguredModeAndParentIsCreated() async throws {
        let directory = try TemporaryDirectory.make()
        let daemon = try await DaemonProcess(
            directory: directory, configuration: "socket_mode = \"0600\"\n",
            arguments: ["--socket", directory + "/nested/run/twitterd.sock"]
        )
        _ = daemon
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/nested/run/twitterd.sock")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let defaultDaemon = try await DaemonProcess()
        let defaultAttributes = try FileManager.default.attributesOfItem(atPath: defaultDaemon.socketPath)
        #expect((defaultAttributes[.posixPermissions] as? Int) == 0o660)
        // The group that may connect is the daemon's own group (under systemd: SocketGroup=twitterd).
        #expect((defaultAttributes[.groupOwnerAccountID] as? Int) == Int(getegid()))
    }

    @Test func connectionCapAnswersMinus32008AndCloses() async throws {
        let daemon = try await DaemonProcess(configuration: "[limits]\nmax_connections = 2\n")
        let first = try RawSocket(path: daemon.socketPath)
        let second = try RawSocket(path: daemon.socketPath)
        for socket in [first, second] {
            socket.send(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"# + "\n")
            #expect(socket.readLine() != nil)
        }
        let third = try RawSocket(path: daemon.socketPath)
        let value = try JSONParser().parse(try #require(third.readLine()))
        #expect(value["error"]?["code"] == -32008)
        #expect(value["error"]?["data"]?["kind"] == "unavailable")
        #expect(third.waitForClose())
    }

    @Test func sigtermAnswersEveryRequestInFlightThenExitsCleanly() async throws {
        let daemon = try await DaemonProcess()
        let perConnection = 1000
        let sockets = try (0..<8).map { _ in try RawSocket(path: daemon.socketPath) }
        for socket in sockets {
            let requests = (1...perConnection).map { #"{"jsonrpc":"2.0","method":"system.health","id":\#($0)}"# + "\n" }
            socket.send(requests.joined())
        }
        // Every connection has been read from when its first answer arrives; then the daemon is told to stop.
        for socket in sockets { #expect(socket.readLine() != nil) }
        daemon.send(SIGTERM)
        for socket in sockets {
            let rest = socket.readLinesUntilEOF()
            #expect(rest.count == perConnection - 1)
            #expect(rest.last?.contains(#""id":\#(perConnection)"#) == true)
        }
        #expect(daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        let stopping = await daemon.notifications.waitFor("STOPPING=1", seconds: 5)
        #expect(stopping != nil)
    }

    @Test func badConfigurationStopsStartUpNamingTheKey() throws {
        let directory = try TemporaryDirectory.make()
        let cases = [
            ("[limits]\nmax_batch = 0\n", "limits.max_batch: must be between 1 and 1000000, not 0"),
            ("[limits]\nmax_batch = \"ten\"\n", "limits.max_batch: must be an integer"),
            ("log_level = \"loud\"\n", "log_level: must be one of"),
            ("sockett = \"/tmp/x\"\n", "sockett: unknown key"),
            ("socket_mode = \"999\"\n", "socket_mode: must be an octal mode"),
            ("[limits\n", "twitterd.toml:1"),
        ]
        for (text, message) in cases {
            let path = directory + "/twitterd.toml"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try runProduct(
                "twitterd",
                ["--config", path, "--socket", directory + "/s.sock", "--database", directory + "/d.sqlite"]
            )
            #expect(result.status == 78, "\(text)")
            #expect(result.error.contains(message), "\(text): \(result.error)")
        }
    }

    @Test func flagsBeatTheFileAndTheFileBeatsDefaults() async throws {
        let directory = try TemporaryDirectory.make()
        let daemon = try await DaemonProcess(
            directory: directory,
            configuration:
                "socket = \"\(directory)/from-file.sock\"\nlog_level = \"warning\"\n[limits]\nmax_batch = 2\n",
            arguments: ["--log-level", "debug"]
        )
        // --socket from DaemonProcess beats the file's socket; --log-level debug beats the file's warning.
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(!FileManager.default.fileExists(atPath: directory + "/from-file.sock"))
        #expect(daemon.log.contains("DEBUG"))
        let socket = try RawSocket(path: daemon.socketPath)
        let member = #"{"jsonrpc":"2.0","method":"system.ping","id":1}"#
        socket.send("[\(member),\(member),\(member)]\n")
        let value = try JSONParser().parse(try #require(socket.readLine()))
        #expect(value["error"]?["data"]?["limit"] == 2)
    }

    @Test func journalPrefixesUnderSystemd() async throws {
        let daemon = try await DaemonProcess(environment: ["JOURNAL_STREAM": "8:12345"])
        daemon.stop()
        let lines = daemon.log.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.first == "<" && $0.dropFirst().first?.isNumber == true })
        #expect(lines.contains { $0.hasPrefix("<5>") })
    }
}
