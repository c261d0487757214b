import Foundation
import JSONRPC

/// A connection to a daemon's socket opened by another local user: `socat` run as uid 65534 (nobody) through
/// `setpriv`, so the kernel's SO_PEERCRED names that uid, exactly as for a second person on the machine.
///
/// The test writes request lines to socat's standard input and reads the daemon's lines from its output. It needs
/// root (to change uid); a test using it is enabled by `ForeignPeer.isPossible`, which says so precisely. The
/// daemon's socket must be reachable by nobody: `ForeignPeer.reachableConfiguration` and a socket folder of mode
/// 0755 (`TemporaryDirectory.make()`) give that.
public final class ForeignPeer: @unchecked Sendable {
    // @unchecked: one test owns it; the pending buffer and the id counter are only touched by that test's calls.
    /// The uid the connection is made as.
    public static let uid: UInt32 = 65534
    /// Whether this process can act as another user: changing uid needs root.
    public static var isPossible: Bool { geteuid() == 0 }
    /// A `socket_mode` line that lets every local user connect, as a pubnix's daemon would.
    public static let reachableConfiguration = "socket_mode = \"0666\"\n"

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []
    private var nextID = 1

    /// Connects to `socketPath` as uid 65534; the connection is open once the first answer arrives.
    public init(socketPath: String, uid: UInt32 = ForeignPeer.uid) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--", "/usr/bin/socat", "-t", "30", "-",
            "UNIX-CONNECT:\(socketPath)",
        ]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Sends one line (a newline is added).
    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes the connection's sending side: the daemon sees the end of the stream.
    public func close() {
        try? input.fileHandleForWriting.close()
    }

    /// The next line from the daemon, waiting up to `seconds`; nil at the end of the stream or on timeout.
    public func readLine(seconds: Int32 = 60) -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, seconds * 1000) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Calls `method` and returns the whole answer object (its `result` or `error`), skipping notifications.
    /// Throws when the connection ends first.
    @discardableResult
    public func call(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
        let id = nextID
        nextID += 1
        var request: [String: JSONValue] = [
            "jsonrpc": "2.0", "method": .string(method), "id": .number(JSONNumber(id)),
        ]
        if let params { request["params"] = params }
        send(JSONValue.object(request).serialized)
        while let line = readLine() {
            let answer = try JSONParser().parse(line)
            if case .number(let answered)? = answer["id"], answered.int64 == Int64(id) { return answer }
        }
        throw ForeignPeerError.connectionEnded(method: method)
    }

    /// The error code of `method`'s answer, or nil when it succeeded.
    public func errorCode(_ method: String, _ params: JSONValue? = nil) throws -> Int? {
        guard case .number(let code)? = try call(method, params)["error"]?["code"] else { return nil }
        return code.int64.map(Int.init)
    }
}

/// Why a foreign peer's call got no answer.
public enum ForeignPeerError: Error, CustomStringConvertible {
    /// The daemon closed the connection, or socat could not connect.
    case connectionEnded(method: String)

    /// What went wrong, for a test's failure message.
    public var description: String {
        switch self {
        case .connectionEnded(let method): "the connection ended before \(method) was answered"
        }
    }
}
