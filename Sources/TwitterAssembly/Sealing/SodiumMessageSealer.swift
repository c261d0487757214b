import Foundation
import Sodium
import TwitterCore

/// Message texts sealed with libsodium's XChaCha20-Poly1305 under the daemon's messages key, a random nonce per
/// message, and the message's place (its id and its conversation's) as associated data: what the stores keep, and
/// what a copy of the database shows of a message.
///
/// A text sealed for its place starts with `marker`. One sealed before places were bound (before issue #48) has
/// none: the daemon seals each of those again for its own row at start, before it serves
/// (`MessageServices.rebindLegacyTexts`), and `open` refuses them, because an unbound text opens in any row and
/// none should remain. A marked text never opens unbound (its tag covers the place), so taking the marker off or
/// moving the text to another row makes it fail to open.
public struct SodiumMessageSealer: MessageSealing {
    private let key: [UInt8]
    /// "TWM1": a text sealed for its place. An unmarked text's first bytes are its random nonce.
    static let marker: [UInt8] = [0x54, 0x57, 0x4D, 0x31]

    /// A sealer with `key`, `Sodium.aeadKeyLength` bytes (`MessageKey.loadOrCreate`).
    public init(key: [UInt8]) {
        self.key = key
    }

    /// "TWM1".
    public var boundMarker: [UInt8] { Self.marker }

    /// The marker, then nonce, ciphertext and tag of the UTF-8 text, the tag covering `place`.
    public func seal(_ text: String, for place: MessagePlace) -> [UInt8] {
        Self.marker + Sodium.shared.seal(Array(text.utf8), key: key, associatedData: place.associatedData)
    }

    /// The text, or -32603 when the bytes were not sealed with this key for this place: a daemon given another
    /// messages key, a sealed text moved to another row or altered, or an unbound text the start-up pass did not
    /// seal again (written since by an older daemon on a shared database, or put there by hand).
    public func open(_ sealed: [UInt8], at place: MessagePlace) throws(TwitterError) -> String {
        guard sealed.starts(with: Self.marker) else {
            throw TwitterError(
                .internal,
                "Message \(place.messageID) cannot be opened: it is not sealed for its row (sealed by a daemon "
                    + "older than issue #48, or put there by hand); a daemon of this version seals such texts again "
                    + "when it starts")
        }
        guard
            let plain = Sodium.shared.open(
                Array(sealed.dropFirst(Self.marker.count)), key: key, associatedData: place.associatedData),
            let text = String(validating: plain, as: UTF8.self)
        else {
            throw TwitterError(
                .internal,
                "Message \(place.messageID) cannot be opened: it was sealed for another message or conversation, "
                    + "altered, or sealed under another messages key")
        }
        return text
    }

    /// An unmarked text that opens unbound under this key, sealed again for `place`; nil for a marked text (bound
    /// already) and for one that does not open (another key, altered), which stays as it is and fails to open.
    public func rebind(_ sealed: [UInt8], for place: MessagePlace) -> [UInt8]? {
        guard !sealed.starts(with: Self.marker), let plain = Sodium.shared.open(sealed, key: key) else { return nil }
        return Self.marker + Sodium.shared.seal(plain, key: key, associatedData: place.associatedData)
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
