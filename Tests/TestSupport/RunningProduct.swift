import Foundation

/// A built executable running in the background, whose output a test reads line by line as it comes.
public final class RunningProduct: @unchecked Sendable {
    // @unchecked: one test owns it; the pending buffer is only touched by that test's calls.
    private let process = Process()
    private let output = Pipe()
    private var pending: [UInt8] = []

    /// Starts `name` with `arguments` and extra environment variables; with `errorsToo`, standard error is read
    /// in the same stream as standard output.
    public init(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], errorsToo: Bool = false
    ) throws {
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path(of: name))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = output
        process.standardError = errorsToo ? output : FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The next line of standard output, waiting up to `seconds`; nil at EOF or timeout.
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
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Waits for the process to end by itself and returns its exit status.
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Stops the process (SIGINT, as Ctrl-C) and returns its exit status.
    @discardableResult
    public func interrupt() -> Int32 {
        process.interrupt()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
