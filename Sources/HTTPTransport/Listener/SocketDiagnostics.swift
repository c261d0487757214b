import Glibc
import NIOCore

/// Who is at the other end of a loopback TCP connection, asked of the kernel's socket table as identd does:
/// NETLINK_SOCK_DIAG with an `inet_diag_req_v2` for the peer's own socket (the connection's 4-tuple reversed);
/// the answer's `inet_diag_msg` carries the uid that owns it. Over TCP there is no SO_PEERCRED, and without the
/// uid the per-uid connection caps, signup rates and the login throttle's per-(account, uid) rule would not hold.
enum SocketDiagnostics {
    /// Why the owner could not be found.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let netlinkSockDiag: Int32 = 4
    static let sockDiagByFamily: UInt16 = 20
    static let requestFlag: UInt16 = 1
    static let doneType: UInt16 = 3
    static let errorType: UInt16 = 2
    static let headerSize = 16
    static let requestSize = 56
    /// The uid's offset in an answer: netlink header, then family/state/timer/retrans (4), the socket id (48),
    /// expires, rqueue and wqueue (12).
    static let uidOffset = headerSize + 4 + 48 + 12

    /// The uid owning the TCP socket at `source` connected to `destination` (the peer's view), read from the
    /// kernel.
    static func owner(source: SocketAddress, destination: SocketAddress) throws(Failure) -> UInt32 {
        let request = try encodeRequest(source: source, destination: destination, sequence: 1)
        let descriptor = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag)
        guard descriptor >= 0 else { throw Failure(description: "netlink socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // sockaddr_nl (family, padding, pid 0 for the kernel, no groups), which Glibc's module does not export.
        var kernel = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt16(AF_NETLINK)) { kernel.replaceSubrange(0..<2, with: $0) }
        let sent = request.withUnsafeBytes { bytes in
            kernel.withUnsafeBytes { address in
                sendto(
                    descriptor, bytes.baseAddress, bytes.count, 0,
                    address.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
            }
        }
        guard sent == request.count else {
            throw Failure(description: "netlink send: \(String(cString: strerror(errno)))")
        }
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard received > 0 else {
                throw Failure(description: "netlink receive: \(String(cString: strerror(errno)))")
            }
            switch try decodeAnswer(Array(buffer[..<received])) {
            case .owner(let uid): return uid
            case .notFound: throw Failure(description: "the kernel knows no such TCP socket")
            case .more: continue
            }
        }
    }

    /// The request for the socket at `source` talking to `destination`, in host byte order where netlink wants
    /// it and network order where the socket id does.
    static func encodeRequest(source: SocketAddress, destination: SocketAddress, sequence: UInt32)
        throws(Failure) -> [UInt8]
    {
        let family: UInt8
        let sourceBytes: [UInt8]
        let destinationBytes: [UInt8]
        switch (source, destination) {
        case (.v4(let from), .v4(let to)):
            family = UInt8(AF_INET)
            sourceBytes = withUnsafeBytes(of: from.address.sin_addr) { Array($0) }
            destinationBytes = withUnsafeBytes(of: to.address.sin_addr) { Array($0) }
        case (.v6(let from), .v6(let to)):
            family = UInt8(AF_INET6)
            sourceBytes = withUnsafeBytes(of: from.address.sin6_addr) { Array($0) }
            destinationBytes = withUnsafeBytes(of: to.address.sin6_addr) { Array($0) }
        default:
            throw Failure(description: "not a TCP connection of one address family")
        }
        guard let sourcePort = source.port, let destinationPort = destination.port else {
            throw Failure(description: "an address without a port")
        }
        var message: [UInt8] = []
        message.reserveCapacity(headerSize + requestSize)
        appendHost(UInt32(headerSize + requestSize), to: &message)
        appendHost(sockDiagByFamily, to: &message)
        appendHost(requestFlag, to: &message)
        appendHost(sequence, to: &message)
        appendHost(UInt32(0), to: &message)
        // inet_diag_req_v2: family, protocol, extensions, padding, the states wanted (all).
        message += [family, UInt8(IPPROTO_TCP), 0, 0]
        appendHost(UInt32.max, to: &message)
        // inet_diag_sockid: ports big-endian, addresses as 16 bytes each, interface, cookie (none).
        message += [UInt8(sourcePort >> 8 & 0xFF), UInt8(sourcePort & 0xFF)]
        message += [UInt8(destinationPort >> 8 & 0xFF), UInt8(destinationPort & 0xFF)]
        message += sourceBytes + [UInt8](repeating: 0, count: 16 - sourceBytes.count)
        message += destinationBytes + [UInt8](repeating: 0, count: 16 - destinationBytes.count)
        appendHost(UInt32(0), to: &message)
        appendHost(UInt32.max, to: &message)
        appendHost(UInt32.max, to: &message)
        return message
    }

    /// What one datagram of the answer says.
    enum Answer: Equatable {
        case owner(UInt32)
        case notFound
        case more
    }

    /// Reads the first message of an answer: an `inet_diag_msg` gives the uid; an error or an empty dump, none.
    static func decodeAnswer(_ bytes: [UInt8]) throws(Failure) -> Answer {
        guard bytes.count >= headerSize else { throw Failure(description: "a short netlink answer") }
        let type = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
        switch type {
        case doneType, errorType: return .notFound
        case sockDiagByFamily:
            guard bytes.count >= uidOffset + 4 else { throw Failure(description: "a short inet_diag_msg") }
            return .owner(readHost(bytes, at: uidOffset))
        default: return .more
        }
    }

    private static func appendHost(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    private static func appendHost(_ value: UInt16, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    private static func readHost(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<(offset + 4)]) }
        return value
    }
}
