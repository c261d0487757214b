import Foundation
import TestSupport
import Testing

/// The daemon's HTTP listeners as a process sees them: http.sock by default, loopback TCP when asked, and any
/// other address refused at start.
@Suite(.serialized) struct HTTPListenerTests {
    @Test(arguments: ["0.0.0.0:3000", "[::]:3000", "192.168.1.5:3000", "example.com:3000"])
    func aNonLoopbackAddressIsRefusedAtStartWithExit78(address: String) throws {
        let folder = try TemporaryDirectory.make()
        let result = try runProduct(
            "twitterd",
            ["--socket", folder + "/twitterd.sock", "--database", folder + "/twitterd.sqlite", "--http", address])
        #expect(result.status == 78)
        #expect(result.error.contains("not a loopback address"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/twitterd.sock"), "nothing was opened")
    }

    @Test func aNonLoopbackAddressInTheFileIsRefusedToo() throws {
        let folder = try TemporaryDirectory.make()
        try "[http]\nlisten = [\"0.0.0.0:3000\"]\n".write(
            toFile: folder + "/twitterd.toml", atomically: true, encoding: .utf8)
        let result = try runProduct(
            "twitterd",
            [
                "--socket", folder + "/twitterd.sock", "--database", folder + "/twitterd.sqlite", "--config",
                folder + "/twitterd.toml",
            ])
        #expect(result.status == 78)
        #expect(result.error.contains("http.listen"), "\(result.error)")
    }

    @Test func httpSockIsServedBesideTheRPCSocketWithItsModeAndRemovedAtExit() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let path = daemon.directory + "/http.sock"
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o660)
        let socket = try RawSocket(path: path)
        socket.send("GET /api/v1/no/such/endpoint HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(socket.readLine()?.hasPrefix("HTTP/1.1 404") == true)
        let instance = try RawSocket(path: path)
        instance.send("GET /api/v1/instance/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(instance.readLine()?.hasPrefix("HTTP/1.1 200") == true, "MastodonRoutes.all is served")
        #expect(daemon.stop() == 0)
        #expect(lstat(path, &status) != 0, "removed at exit")
    }

    @Test func loopbackTCPIsServedWhenAsked() async throws {
        let port = try Self.freePort()
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing, arguments: ["--http", "127.0.0.1:\(port)"])
        let socket = try RawSocket(host: "127.0.0.1", port: port)
        socket.send("GET /api/v1/no/such/endpoint HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(socket.readLine()?.hasPrefix("HTTP/1.1 404") == true)
        let rebound = try RawSocket(host: "127.0.0.1", port: port)
        rebound.send("GET /api/v1/no/such/endpoint HTTP/1.1\r\nHost: attacker.example\r\n\r\n")
        #expect(rebound.readLine()?.hasPrefix("HTTP/1.1 421") == true)
        #expect(daemon.log.contains("Mastodon API at http://127.0.0.1:\(port)"))
        #expect(!FileManager.default.fileExists(atPath: daemon.directory + "/http.sock"), "--http replaces the default")
        #expect(daemon.stop() == 0)
    }

    /// A port nothing listens on now (the kernel's choice, given back).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
