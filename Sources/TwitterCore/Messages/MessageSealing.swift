/// Seals message texts for the database and opens them again. The crypto behind it (libsodium's
/// XChaCha20-Poly1305 under the daemon's `messages.key`) belongs to the assembly; the server only asks, and the
/// stores only ever hold what `seal` made.
///
/// Each text is sealed for its place, its message's id and its conversation's id, as associated data: a sealed
/// text copied into another row (another message, another conversation) does not open there.
public protocol MessageSealing: Sendable {
    /// The stored form of `text` in the row `place`: authenticated ciphertext under a random nonce, different at
    /// every call.
    func seal(_ text: String, for place: MessagePlace) -> [UInt8]
    /// The text `sealed` holds; -32603 when it was not sealed with this key, was altered, was sealed for
    /// another place, or was sealed before places were bound (the daemon seals those again at start).
    func open(_ sealed: [UInt8], at place: MessagePlace) throws(TwitterError) -> String
    /// The bytes every text sealed for its place starts with: a stored text without them was sealed before
    /// places were bound (issue #48).
    var boundMarker: [UInt8] { get }
    /// A text sealed before places were bound, sealed again for `place`; nil when `sealed` is already bound or
    /// does not open under this key. Only the start-up pass (`MessageServices.rebindLegacyTexts`) calls it.
    func rebind(_ sealed: [UInt8], for place: MessagePlace) -> [UInt8]?
}

// @MemberwiseInit
/// Where a sealed text belongs: the message and the conversation it was sealed for.
public struct MessagePlace: Sendable, Hashable {
    /// The message's id.
    public var messageID: Int64
    /// Its conversation's id.
    public var conversationID: Int64

    /// The place of a stored message.
    public init(of message: StoredMessage) {
        self.init(messageID: message.id, conversationID: message.conversationID)
    }

    /// The associated data a text is sealed with: a label, then both ids as 8 big-endian bytes each.
    public var associatedData: [UInt8] {
        var bytes = Array("twitterd.message.v1".utf8)
        for id in [messageID, conversationID] {
            withUnsafeBytes(of: id.bigEndian) { bytes += $0 }
        }
        return bytes
    }
}
