import Foundation

/// Reads another process's memory use from /proc, for tests that bound the daemon's memory.
public enum ProcessMemory {
    /// VmRSS of `pid` in KiB, or nil when it cannot be read.
    public static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
