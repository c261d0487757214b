import Foundation
import Testing

@testable import TwitterServer

/// sd_notify's two address forms: a path, and an abstract name written with a leading "@".
struct SystemdNotifierTests {
    @Test func sendsToAnAbstractSocket() throws {
        let name = "twitterd-test-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes: [UInt8] = [0] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name]).ready(status: "serving")
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        #expect(count > 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "READY=1\nSTATUS=serving")
    }

    @Test func doesNothingWithoutNotifySocket() {
        #expect(!SystemdNotifier(environment: [:]).isEnabled)
    }
}
