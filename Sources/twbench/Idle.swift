import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import TwitterClient

/// `twbench idle`: holds many idle connections open and reports the daemon's memory and another client's
/// ping latency before and while they are held.
struct Idle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hold idle connections; report the daemon's resident memory and a ping client's p99."
    )

    @Option(help: "The socket.")
    var socket: String

    @Option(help: "Idle connections to hold.")
    var connections = 10_000

    @Option(help: "The daemon's process id, for its resident memory.")
    var pid: Int32

    @Option(help: "Seconds of ping measurement, before and while holding.")
    var duration = 3.0

    @Flag(help: "Print the result as JSON.")
    var json = false

    struct Result: Codable {
        var connections: Int
        var residentKiBBefore: Int
        var residentKiBHolding: Int
        var baselinePingP99Micros: UInt64
        var holdingPingP99Micros: UInt64
    }

    func run() async throws {
        raiseOpenFileLimit()
        let baseline = try await pingProbe()
        let before = Self.residentKiB(pid: pid)
        var held: [any Channel] = []
        held.reserveCapacity(connections)
        for _ in 0..<connections {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: socket).get()
            held.append(channel)
        }
        // A ping through the last connection proves the daemon accepted them all before memory is read.
        try await RPCConnection.withConnection(socketPath: socket) { connection in
            _ = try await connection.call("system.ping")
        }
        let holding = Self.residentKiB(pid: pid)
        let loaded = try await pingProbe()
        for channel in held { channel.close(promise: nil) }
        let result = Result(
            connections: connections, residentKiBBefore: before, residentKiBHolding: holding,
            baselinePingP99Micros: baseline.latencies.valueAtPercentile(99),
            holdingPingP99Micros: loaded.latencies.valueAtPercentile(99)
        )
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print("resident memory: \(before) KiB idle, \(holding) KiB with \(connections) idle connections")
            print(
                "ping p99: \(result.baselinePingP99Micros) µs before, \(result.holdingPingP99Micros) µs while holding")
        }
    }

    private func pingProbe() async throws -> ConnectionStats {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(duration * 1e9))
        return try await Load.drive(
            socket: socket, workload: .ping, depth: 1, deadline: deadline, account: 1, setup: [])
    }

    /// VmRSS of `pid`, from /proc.
    static func residentKiB(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    private func raiseOpenFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
