import Foundation
import Testing
import TwitterServer

/// `[http] listen` and `--http`: Unix sockets and loopback TCP only.
struct HTTPConfigurationTests {
    @Test(arguments: [
        "127.0.0.1:3000", "127.1.2.3:80", "[::1]:3000", "localhost:3000", "unix:/run/x/http.sock",
        "[0:0:0:0:0:0:0:1]:9",
    ])
    func loopbackAndUnixAddressesAreTaken(text: String) throws {
        _ = try HTTPListenAddress(parsing: text, key: "--http")
    }

    @Test(arguments: [
        "0.0.0.0:3000", "[::]:3000", "192.168.1.5:3000", "example.com:80", "10.0.0.1:1",
        "127.0.0.1", "127.0.0.1:0x", "127.0.0.1:70000", "unix:", "[::2]:80", "localhost.example.com:80",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(throws: ConfigurationError.self) { try HTTPListenAddress(parsing: text, key: "--http") }
    }

    @Test func theDefaultIsHttpSockBesideTheRPCSocket() {
        #expect(
            HTTPSettings().addresses(socketPath: "/run/twitterd/twitterd.sock") == [
                .unix(path: "/run/twitterd/http.sock")
            ])
    }

    @Test func theFileSetsListenAndHostsAndRefusesANonLoopbackAddress() throws {
        let folder = NSTemporaryDirectory() + "/http-config-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let good = folder + "/good.toml"
        try "[http]\nlisten = [\"unix:/tmp/h.sock\", \"127.0.0.1:3000\"]\nhosts = [\"Twitterd.Local\"]\n"
            .write(toFile: good, atomically: true, encoding: .utf8)
        var configuration = ServerConfiguration(socketPath: "/tmp/s.sock", databasePath: "/tmp/d.sqlite")
        try ConfigurationFile(path: good).apply(to: &configuration)
        #expect(configuration.http.listen == [.unix(path: "/tmp/h.sock"), .tcp(host: "127.0.0.1", port: 3000)])
        #expect(configuration.http.hosts == ["twitterd.local"])
        let bad = folder + "/bad.toml"
        try "[http]\nlisten = [\"0.0.0.0:3000\"]\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationFile(path: bad).apply(to: &configuration)
        }
    }
}
