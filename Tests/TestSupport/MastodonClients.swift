import Foundation
import JSONRPC

/// The real Mastodon clients, toot and Mastodon.py, in the virtual environment `make clients` builds.
///
/// `make test` names that environment in `TWITTERD_TEST_MASTODON_CLIENTS`. Set, the client tests run and an
/// environment that is missing or broken fails them; unset (a bare `swift test`), they are skipped, and say so.
public struct MastodonClients: Sendable {
    /// The variable the Makefile sets.
    public static let variable = "TWITTERD_TEST_MASTODON_CLIENTS"

    /// Whether this run asked for the client tests.
    public static var requested: Bool { ProcessInfo.processInfo.environment[variable] != nil }

    /// The folder holding the Python scripts the tests run (Tests/MastodonClients).
    public static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MastodonClients").path

    /// The virtual environment.
    public let environment: String

    /// The environment the Makefile named; throws when it is not there or lacks a client.
    public init() throws {
        guard let folder = ProcessInfo.processInfo.environment[Self.variable] else { throw Missing.notRequested }
        for program in ["bin/toot", "bin/python"]
        where !FileManager.default.isExecutableFile(atPath: "\(folder)/\(program)") {
            throw Missing.program("\(folder)/\(program)")
        }
        environment = folder
    }

    /// Why the clients cannot run.
    public enum Missing: Error, CustomStringConvertible {
        case notRequested
        case program(String)

        /// What is missing, and how to get it.
        public var description: String {
            switch self {
            case .notRequested: "\(MastodonClients.variable) is not set; `make clients` builds the environment"
            case .program(let path): "\(path) is missing; `make clients` builds it"
            }
        }
    }

    /// Runs toot with `arguments`, stdin from /dev/null (toot reads a post's text from a non-terminal stdin),
    /// its configuration and cache in `home` (one folder per person and daemon: toot keys its stored app by the
    /// instance's `uri`, which is the same for every daemon on a port).
    public func toot(_ arguments: [String], home: String, environment extra: [String: String] = [:]) throws
        -> ProgramResult
    {
        try runProgram(
            environment + "/bin/toot", arguments,
            environment: ["XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache", "NO_COLOR": "1"]
                .merging(extra) { _, new in new })
    }

    /// Runs one step of Tests/MastodonClients/mastodon_py.py against `base` with `token`, and parses the JSON
    /// line it prints.
    public func mastodonPy(_ step: String, _ arguments: [String] = [], base: String, token: String? = nil) throws
        -> JSONValue
    {
        var variables = ["TW_BASE": base]
        if let token { variables["TW_TOKEN"] = token }
        let result = try runProgram(
            environment + "/bin/python", [Self.scripts + "/mastodon_py.py", step] + arguments, environment: variables)
        guard result.status == 0, let line = result.output.split(separator: "\n").last else {
            throw StepFailure(step: step, arguments: arguments, result: result)
        }
        return try JSONParser().parse(String(line))
    }

    /// A Mastodon.py step left running, for the streaming steps: its JSON lines are read as they come.
    public func startMastodonPy(_ step: String, _ arguments: [String] = [], base: String, token: String) throws
        -> RunningProduct
    {
        try RunningProduct(
            executable: environment + "/bin/python", [Self.scripts + "/mastodon_py.py", step] + arguments,
            environment: ["TW_BASE": base, "TW_TOKEN": token], errorsToo: true)
    }

    /// A Mastodon.py step that ended with an error.
    public struct StepFailure: Error, CustomStringConvertible {
        /// The step and its arguments.
        public let step: String
        /// Its arguments.
        public let arguments: [String]
        /// What it printed.
        public let result: ProgramResult

        /// A failure of `step` with `arguments` that printed `result`.
        public init(step: String, arguments: [String], result: ProgramResult) {
            self.step = step
            self.arguments = arguments
            self.result = result
        }

        /// The step and its output.
        public var description: String {
            "mastodon_py.py \(step) \(arguments) exited \(result.status):\n\(result.output)\n\(result.error)"
        }
    }
}

/// A finished program's exit status and output.
public struct ProgramResult: Sendable {
    /// The exit status.
    public let status: Int32
    /// Standard output.
    public let output: String
    /// Standard error.
    public let error: String

    /// A result of `status` with `output` and `error`.
    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}

/// Runs the program at `path` to completion with stdin from /dev/null and returns its status and output.
public func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> ProgramResult
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Standard error is drained on its own thread, so a chatty program cannot block on either full pipe.
    let errorData = ErrorDrain(error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProgramResult(
        status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        error: String(decoding: errorData.wait(), as: UTF8.self))
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorDrain: @unchecked Sendable {
    // @unchecked: `data` is written once by the thread before the semaphore is signalled and read after it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// A free TCP port on 127.0.0.1: bound to port 0, read back and released, for a daemon's `--http` address.
public func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}
