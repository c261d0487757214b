import Sodium
import TwitterCore

/// Token secrets from libsodium's random bytes in `TokenCodec`'s text form, stored as BLAKE2b keyed with the
/// daemon's token key (`TokenKey`).
public struct TokenSealer: TokenSealing {
    private let key: [UInt8]

    /// Creates a sealer with the daemon's token key.
    public init(key: [UInt8]) {
        self.key = key
    }

    /// A new random token of `kind`.
    public func makeToken(kind: TokenKind) -> String {
        TokenCodec.makeToken(kind: kind)
    }

    /// The kind of a well-formed token with a correct checksum.
    public func kind(of token: String) -> TokenKind? {
        TokenCodec.kind(of: token)
    }

    /// BLAKE2b of the token, keyed with the token key.
    public func seal(_ token: String) -> [UInt8] {
        Sodium.shared.genericHash(Array(token.utf8), key: key, outputLength: 32)
    }
}
