import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// The units and the systemd protocol, without systemd as PID 1: units are checked with systemd-analyze,
/// socket activation runs through systemd-socket-activate, and a datagram socket stands in for systemd.
@Suite(.serialized) struct SystemdTests {
    static let unitFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd").path

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func unitsVerifyWithExecStartPointingAtTheBuiltBinary() throws {
        let directory = try TemporaryDirectory.make()
        let service = try String(contentsOfFile: Self.unitFolder + "/twitterd.service", encoding: .utf8)
            .replacingOccurrences(
                of: "ExecStart=/usr/local/bin/twitterd", with: "ExecStart=\(BuiltProducts.path(of: "twitterd"))")
        try service.write(toFile: directory + "/twitterd.service", atomically: true, encoding: .utf8)
        for unit in ["twitterd.socket", "twitterd-http.socket"] {
            try FileManager.default.copyItem(atPath: Self.unitFolder + "/" + unit, toPath: directory + "/" + unit)
        }
        let result = try Self.run(
            "/usr/bin/systemd-analyze",
            [
                "verify", "--man=no", directory + "/twitterd.socket", directory + "/twitterd-http.socket",
                directory + "/twitterd.service",
            ]
        )
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "systemd-analyze verify complained:\n\(result.output)")
    }

    @Test func theServiceCapsItsMemoryReclaimingBeforeItKills() throws {
        let service = try String(contentsOfFile: Self.unitFolder + "/twitterd.service", encoding: .utf8)
        let bytes = { (directive: String) -> Int? in
            let prefix = directive + "="
            guard let line = service.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) else { return nil }
            let value = line.dropFirst(prefix.count)
            let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
            guard let unit = value.last, let scale = units[unit], let number = Int(value.dropLast()) else {
                return Int(value)
            }
            return number * scale
        }
        let high = try #require(bytes("MemoryHigh"), "MemoryHigh= is set in bytes, K, M or G")
        let max = try #require(bytes("MemoryMax"), "MemoryMax= is set in bytes, K, M or G")
        #expect(high < max, "the kernel reclaims before the daemon is killed")
        #expect(high >= 512 << 20, "room for the read model and the password hashes")
    }

    @Test func backupUnitsVerifyWithExecStartPointingAtTheBuiltBinary() throws {
        let directory = try TemporaryDirectory.make()
        let service = try String(contentsOfFile: Self.unitFolder + "/twitterd-backup.service", encoding: .utf8)
            .replacingOccurrences(
                of: "ExecStart=/usr/local/bin/twitterd", with: "ExecStart=\(BuiltProducts.path(of: "twitterd"))")
        #expect(service.contains("ExecStart=\(BuiltProducts.path(of: "twitterd")) backup --keep 7 "))
        try service.write(toFile: directory + "/twitterd-backup.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: Self.unitFolder + "/twitterd-backup.timer", toPath: directory + "/twitterd-backup.timer")
        let result = try Self.run(
            "/usr/bin/systemd-analyze",
            ["verify", "--man=no", directory + "/twitterd-backup.timer", directory + "/twitterd-backup.service"]
        )
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "systemd-analyze verify complained:\n\(result.output)")
    }

    @Test(arguments: ["twitterd.service", "twitterd-backup.service"])
    func exposureScoreIsAtMostOne(unit: String) throws {
        let result = try Self.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=true", Self.unitFolder + "/" + unit]
        )
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(score <= 1.0, "\(line)")
    }

    @Test func socketActivationServesTheInheritedSocketAndLeavesItInPlace() throws {
        let directory = try TemporaryDirectory.make()
        let socketPath = directory + "/activated.sock"
        let httpPath = directory + "/activated-http.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        // Both units' sockets, as systemd passes them: the HTTP one is known by its FileDescriptorName.
        process.arguments = [
            "-l", socketPath, "-l", httpPath, "--fdname=twitterd.socket:http", BuiltProducts.path(of: "twitterd"),
            "--database", directory + "/twitterd.sqlite", "--config", try Self.fastConfig(in: directory),
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // systemd-socket-activate listens first and starts twitterd on the first connection.
        let socket = try Self.connect(socketPath)
        socket.send(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"# + "\n")
        #expect(socket.readLine() == #"{"id":1,"jsonrpc":"2.0","result":"pong"}"#)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var status = stat()
        #expect(lstat(socketPath, &status) == 0, "the inherited socket must stay in place")
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(lstat(httpPath, &status) == 0, "the inherited HTTP socket must stay in place")
    }

    @Test func readyStatusAndStoppingArriveInThatOrder() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        #expect(daemon.stop() == 0)
        var lines: [String] = []
        // READY=1 was consumed by the start-up wait; the datagram it came in also carries STATUS=.
        while let message = daemon.notifications.receive() { lines += message.split(separator: "\n").map(String.init) }
        let stopping = try #require(lines.firstIndex(of: "STOPPING=1"))
        #expect(daemon.notificationsBeforeReady.contains { $0.contains("READY=1\nSTATUS=serving on") })
        #expect(stopping == lines.count - 2 || stopping == lines.count - 1)
    }

    @Test func watchdogPingsArriveWhenWatchdogUsecIsSet() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing, environment: ["WATCHDOG_USEC": "200000"])
        let seen = await daemon.notifications.waitFor("WATCHDOG=1", seconds: 30)
        #expect(seen != nil)
        #expect(seen?.last?.contains("STATUS=serving") == true)
    }

    @Test func sighupChangesTheLogLevelWhileAConnectionStaysOpen() async throws {
        let daemon = try await DaemonProcess(
            configuration: "log_level = \"warning\"\n" + DaemonProcess.fastHashing, logLevel: nil)
        let open = try RawSocket(path: daemon.socketPath)
        open.send(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"# + "\n")
        #expect(open.readLine() != nil)
        #expect(!daemon.log.contains("connection opened"))

        try ("log_level = \"debug\"\n[auth]\nproviders = [\"password\"]\n")
            .write(toFile: daemon.configurationPath, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        #expect(await daemon.notifications.waitFor("RELOADING=1", seconds: 30) != nil)
        #expect(await daemon.notifications.waitFor("READY=1", seconds: 30) != nil)

        open.send(#"{"jsonrpc":"2.0","method":"auth.providers","id":2}"# + "\n")
        let providers = try JSONParser().parse(try #require(open.readLine()))
        #expect(providers["result"]?[0]?["name"] == "password")
        #expect(providers["result"]?[1] == nil)
        let fresh = try RawSocket(path: daemon.socketPath)
        fresh.send(#"{"jsonrpc":"2.0","method":"system.ping","id":3}"# + "\n")
        #expect(fresh.readLine() != nil)
        #expect(daemon.log.contains("connection opened"), "debug lines appear after the reload")

        try "log_level = \"shouting\"\n".write(toFile: daemon.configurationPath, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        #expect(await daemon.notifications.waitFor("READY=1", seconds: 30) != nil)
        open.send(#"{"jsonrpc":"2.0","method":"system.ping","id":4}"# + "\n")
        #expect(open.readLine() == #"{"id":4,"jsonrpc":"2.0","result":"pong"}"#)
        #expect(daemon.log.contains("reload failed; keeping the old settings"))
    }

    static func fastConfig(in directory: String) throws -> String {
        let path = directory + "/fast.toml"
        try DaemonProcess.fastHashing.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Connects, retrying while systemd-socket-activate has not bound the path yet.
    static func connect(_ path: String) throws -> RawSocket {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                return try RawSocket(path: path)
            } catch {
                if ContinuousClock.now > deadline { throw error }
                usleep(20_000)
            }
        }
    }
}
