import ArgumentParser
import Foundation

/// `twbench ready -- twitterd ARGS`: the time from starting the daemon to its READY=1.
struct Ready: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Measure the time from start to READY=1, then stop it.")

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Argument(parsing: .captureForPassthrough, help: "The daemon and its arguments.")
    var command: [String]

    func run() throws {
        // The passthrough keeps the "--" that separates the daemon's arguments from twbench's.
        let command = self.command.first == "--" ? Array(self.command.dropFirst()) : self.command
        guard let executable = command.first else { throw ValidationError("Name the daemon to start.") }
        let notifyPath = "/tmp/twbench-notify-\(getpid()).sock"
        let listener = try DatagramListener(path: notifyPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notifyPath]) { _, new in new
        }
        process.standardError = FileHandle.nullDevice
        let started = DispatchTime.now()
        try process.run()
        var readyAt: DispatchTime?
        while process.isRunning, readyAt == nil, let message = listener.receive() {
            if message.split(separator: "\n").contains("READY=1") { readyAt = DispatchTime.now() }
        }
        process.terminate()
        process.waitUntilExit()
        guard let readyAt else { throw ValidationError("the daemon exited or never sent READY=1") }
        let milliseconds = Double(readyAt.uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        print(
            json
                ? "{\"readyMilliseconds\":\(String(format: "%.1f", milliseconds))}"
                : String(format: "READY after %.1f ms", milliseconds))
    }
}

/// A datagram socket that receives notify messages, with a 30 s timeout per read.
struct DatagramListener {
    let descriptor: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        unlink(path)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw ValidationError("cannot bind \(path)") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }
}
