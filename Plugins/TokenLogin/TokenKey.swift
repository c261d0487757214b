import Foundation
import Sodium

/// The secret key of the token hashes, kept in a 0600 file in the state directory.
///
/// Tokens are stored only as BLAKE2b keyed with it, so a copy of the database alone cannot be used to test
/// guessed tokens.
public enum TokenKey {
    /// Reads the key at `path`, creating it (0600, exclusively) on first start.
    public static func loadOrCreate(path: String) throws -> [UInt8] {
        let length = Sodium.genericHashKeyLength
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == length else {
                throw KeyError(description: "\(path) holds \(data.count) bytes, not a \(length)-byte token key")
            }
            return Array(data)
        }
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var key = Sodium.shared.randomBytes(count: length)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw KeyError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == length, fsync(descriptor) == 0 else {
            Sodium.shared.zero(&key)
            throw KeyError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return key
    }

    /// A key file that cannot be used.
    public struct KeyError: Error, CustomStringConvertible {
        /// What is wrong.
        public let description: String
    }
}
