/// Seals message texts for the database and opens them again. The crypto behind it (libsodium's
/// XChaCha20-Poly1305 under the daemon's `messages.key`) belongs to the assembly; the server only asks, and the
/// stores only ever hold what `seal` made.
public protocol MessageSealing: Sendable {
    /// The stored form of `text`: authenticated ciphertext under a random nonce, different at every call.
    func seal(_ text: String) -> [UInt8]
    /// The text `sealed` holds; -32603 when it was not sealed with this key or was altered.
    func open(_ sealed: [UInt8]) throws(TwitterError) -> String
}
