import Foundation
import Sodium
import TwitterCore

/// Message texts sealed with libsodium's XChaCha20-Poly1305 under the daemon's messages key, a random nonce per
/// message: what the stores keep, and what a copy of the database shows of a message.
public struct SodiumMessageSealer: MessageSealing {
    private let key: [UInt8]

    /// A sealer with `key`, `Sodium.aeadKeyLength` bytes (`MessageKey.loadOrCreate`).
    public init(key: [UInt8]) {
        self.key = key
    }

    /// Nonce, ciphertext and tag of the UTF-8 text.
    public func seal(_ text: String) -> [UInt8] {
        Sodium.shared.seal(Array(text.utf8), key: key)
    }

    /// The text, or -32603 when the bytes were not sealed with this key (a daemon given another messages key).
    public func open(_ sealed: [UInt8]) throws(TwitterError) -> String {
        guard let plain = Sodium.shared.open(sealed, key: key), let text = String(validating: plain, as: UTF8.self)
        else {
            throw TwitterError(
                .internal, "A message cannot be opened: the daemon's messages key is not the one it was sealed with")
        }
        return text
    }
}

/// The key message texts are sealed with, kept in a 0600 file beside `token.key` (`messages.key`, or
/// `database.messages_key_file`).
public enum MessageKey {
    /// Reads the key at `path`, creating it (0600, exclusively) on first start.
    public static func loadOrCreate(path: String) throws -> [UInt8] {
        let length = Sodium.aeadKeyLength
        if let data = FileManager.default.contents(atPath: path) {
            guard data.count == length else {
                throw KeyError(description: "\(path) holds \(data.count) bytes, not a \(length)-byte messages key")
            }
            return Array(data)
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let key = Sodium.shared.randomBytes(count: length)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw KeyError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == length, fsync(descriptor) == 0 else {
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
