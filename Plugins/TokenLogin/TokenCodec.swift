import Sodium
import TwitterCore

/// The text form of a token: a readable prefix (`tws_` session, `twp_` personal), then 32 random bytes and a
/// 4-byte checksum in lowercase base32.
///
/// The checksum lets a mistyped or truncated token be rejected without touching the database.
public enum TokenCodec {
    static let secretLength = 32
    static let checksumLength = 4
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The prefix of each kind.
    public static func prefix(of kind: TokenKind) -> String {
        switch kind {
        case .session: "tws_"
        case .personal: "twp_"
        case .passwordReset: "twr_"
        }
    }

    /// A new random token of `kind`.
    public static func makeToken(kind: TokenKind) -> String {
        let secret = Sodium.shared.randomBytes(count: secretLength)
        return prefix(of: kind) + base32(secret + checksum(prefix: prefix(of: kind), secret: secret))
    }

    /// The kind of a well-formed token with a correct checksum; nil for anything else.
    public static func kind(of token: String) -> TokenKind? {
        for kind in [TokenKind.session, .personal] {
            let prefix = prefix(of: kind)
            guard token.hasPrefix(prefix), let bytes = decodeBase32(token.dropFirst(prefix.count)),
                bytes.count == secretLength + checksumLength
            else { continue }
            let secret = Array(bytes.prefix(secretLength))
            let expected = checksum(prefix: prefix, secret: secret)
            return Sodium.shared.constantTimeEquals(Array(bytes.suffix(checksumLength)), expected) ? kind : nil
        }
        return nil
    }

    private static func checksum(prefix: String, secret: [UInt8]) -> [UInt8] {
        Array(Sodium.shared.genericHash(Array(prefix.utf8) + secret, outputLength: 16).prefix(checksumLength))
    }

    static func base32(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[(buffer >> bits) & 31])
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: output, as: UTF8.self)
    }

    static func decodeBase32(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        // Leftover bits must be zero padding, so each byte string has exactly one spelling.
        guard buffer & ((1 << bits) - 1) == 0 else { return nil }
        return output
    }
}
