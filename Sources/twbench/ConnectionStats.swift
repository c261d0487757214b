import Histogram

/// What one connection measured: a latency histogram in microseconds, and the counts.
struct ConnectionStats: Sendable {
    var latencies = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    var completed = 0
    var errors = 0
    var firstError: String?

    mutating func merge(_ other: ConnectionStats) {
        latencies.add(other.latencies)
        completed += other.completed
        errors += other.errors
        if firstError == nil { firstError = other.firstError }
    }
}

/// The figures a run reports.
struct Report: Codable, Sendable {
    var method: String
    var connections: Int
    var depth: Int
    var seconds: Double
    var requests: Int
    var errors: Int
    var requestsPerSecond: Double
    var p50Micros: UInt64
    var p90Micros: UInt64
    var p99Micros: UInt64
    var p999Micros: UInt64
    var maxMicros: UInt64
    var firstError: String?

    init(method: String, connections: Int, depth: Int, seconds: Double, stats: ConnectionStats) {
        self.method = method
        self.connections = connections
        self.depth = depth
        self.seconds = seconds
        requests = stats.completed
        errors = stats.errors
        requestsPerSecond = seconds > 0 ? Double(stats.completed) / seconds : 0
        p50Micros = stats.latencies.valueAtPercentile(50)
        p90Micros = stats.latencies.valueAtPercentile(90)
        p99Micros = stats.latencies.valueAtPercentile(99)
        p999Micros = stats.latencies.valueAtPercentile(99.9)
        maxMicros = stats.latencies.max
        firstError = stats.firstError
    }

    var text: String {
        var lines = [
            "\(method): \(connections) connections × depth \(depth), \(String(format: "%.1f", seconds)) s",
            "  requests/s  \(String(format: "%.0f", requestsPerSecond))  (\(requests) answered, \(errors) errors)",
            "  latency µs  p50 \(p50Micros)  p90 \(p90Micros)  p99 \(p99Micros)  p99.9 \(p999Micros)  max \(maxMicros)",
        ]
        if let firstError { lines.append("  first error: \(firstError)") }
        return lines.joined(separator: "\n")
    }
}
