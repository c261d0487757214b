import Foundation

/// A built executable running in the background, whose output a test reads line by line as it comes.
public final class RunningProduct: @unchecked Sendable {
    // @unchecked: one test owns it; the line reader is only touched by that test's calls.
    private let process = Process()
    private let output = Pipe()
    private let lines: LineReader

    /// Starts `name` with `arguments` and extra environment variables; with `errorsToo`, standard error is read
    /// in the same stream as standard output.
    public convenience init(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], errorsToo: Bool = false
    ) throws {
        try self.init(
            executable: BuiltProducts.path(of: name), arguments, environment: environment, errorsToo: errorsToo,
            inputFromNull: false)
    }

    /// Starts the program at `executable`; with `inputFromNull`, its stdin is /dev/null instead of the test's.
    public init(
        executable: String, _ arguments: [String], environment: [String: String] = [:], errorsToo: Bool = false,
        inputFromNull: Bool = true
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        if inputFromNull { process.standardInput = FileHandle.nullDevice }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = output
        process.standardError = errorsToo ? output : FileHandle.nullDevice
        lines = LineReader(descriptor: output.fileHandleForReading.fileDescriptor)
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
        lines.next(seconds: seconds)
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
