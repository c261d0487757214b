import Foundation
import NIOCore
import TestSupport
import Testing

@testable import HTTPTransport

/// The netlink messages of the sock_diag lookup, and the lookup itself on real loopback connections, from this
/// uid and from another.
struct SocketDiagnosticsTests {
    @Test func theRequestCarriesTheTupleInNetworkOrder() throws {
        let source = try SocketAddress(ipAddress: "127.0.0.1", port: 40000)
        let destination = try SocketAddress(ipAddress: "127.0.0.2", port: 3000)
        let bytes = try SocketDiagnostics.encodeRequest(source: source, destination: destination, sequence: 7)
        #expect(bytes.count == 72)
        #expect(bytes[0] == 72 && bytes[1] == 0, "the length, host order")
        #expect(bytes[4] == 20 && bytes[5] == 0, "SOCK_DIAG_BY_FAMILY")
        #expect(bytes[8] == 7, "the sequence")
        #expect(bytes[16] == UInt8(AF_INET) && bytes[17] == UInt8(IPPROTO_TCP))
        #expect(Array(bytes[24..<28]) == [0x9C, 0x40, 0x0B, 0xB8], "40000 and 3000, big-endian")
        #expect(Array(bytes[28..<32]) == [127, 0, 0, 1])
        #expect(Array(bytes[44..<48]) == [127, 0, 0, 2])
        let v6 = try SocketDiagnostics.encodeRequest(
            source: SocketAddress(ipAddress: "::1", port: 1), destination: SocketAddress(ipAddress: "::1", port: 2),
            sequence: 1)
        #expect(v6[16] == UInt8(AF_INET6))
        #expect(v6[28 + 15] == 1 && v6[44 + 15] == 1)
        #expect(throws: SocketDiagnostics.Failure.self) {
            try SocketDiagnostics.encodeRequest(
                source: source, destination: try SocketAddress(ipAddress: "::1", port: 2), sequence: 1)
        }
    }

    @Test func theAnswerGivesTheUidOrNothing() throws {
        var answer = [UInt8](repeating: 0, count: 16 + 72)
        answer[4] = 20
        withUnsafeBytes(of: UInt32(65534)) { answer.replaceSubrange(80..<84, with: $0) }
        #expect(try SocketDiagnostics.decodeAnswer(answer) == .owner(65534))
        var error = [UInt8](repeating: 0, count: 36)
        error[4] = 2
        #expect(try SocketDiagnostics.decodeAnswer(error) == .notFound)
        #expect(throws: SocketDiagnostics.Failure.self) { try SocketDiagnostics.decodeAnswer([1, 2, 3]) }
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func theKernelNamesThisProcesssUid(host: String) throws {
        let (listener, port) = try Self.listen(host)
        defer { close(listener) }
        let client = try RawSocket(host: host, port: port)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        _ = client
        let (local, remote) = try Self.addresses(accepted)
        #expect(try SocketDiagnostics.owner(source: remote, destination: local) == getuid())
    }

    @Test(.enabled(if: ForeignPeer.isPossible, "changing uid needs root"))
    func theKernelNamesAnotherUsersUid() throws {
        let (listener, port) = try Self.listen("127.0.0.1")
        defer { close(listener) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/socat", "-T", "30", "-",
            "TCP:127.0.0.1:\(port)",
        ]
        process.standardInput = Pipe()
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        let (local, remote) = try Self.addresses(accepted)
        #expect(try SocketDiagnostics.owner(source: remote, destination: local) == 65534)
    }

    private static func listen(_ host: String) throws -> (Int32, Int) {
        let address = try SocketAddress(ipAddress: host, port: 0)
        let descriptor = socket(Int32(address.protocol.rawValue), Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        let bound = address.withSockAddr { bind(descriptor, $0, socklen_t($1)) }
        guard bound == 0, Glibc.listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        return (descriptor, try addresses(descriptor, peer: false).local.port ?? 0)
    }

    private static func addresses(_ descriptor: Int32, peer: Bool = true) throws
        -> (local: SocketAddress, remote: SocketAddress)
    {
        func read(_ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32)
            -> SocketAddress
        {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(descriptor, $0, &length) }
            }
            let family = storage.ss_family
            return withUnsafePointer(to: &storage) { pointer in
                if family == sa_family_t(AF_INET6) {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee) }
                }
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee) }
            }
        }
        let local = read(getsockname)
        return (local, peer ? read(getpeername) : local)
    }
}
