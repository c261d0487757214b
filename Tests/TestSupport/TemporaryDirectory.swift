import Foundation

/// A fresh folder under /tmp, short enough for a Unix socket path (108 bytes at most).
public enum TemporaryDirectory {
    /// Creates the folder (mode 0755) and returns its path.
    public static func make(prefix: String = "twd") throws -> String {
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let path = "/tmp/\(prefix)-\(suffix)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        // Set after creation: the mode given to mkdir loses the umask's bits.
        chmod(path, 0o755)
        return path
    }
}
