/// Why a byte sequence is not exactly one valid JSON text.
///
/// `message` is meant to be shown to the client that sent the bytes, so it names the problem and
/// the zero-based byte offset, e.g. "unexpected character 'x' at byte 12".
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad category of a parse failure, for callers that branch on it rather than on the text.
    public enum Kind: Sendable, Hashable {
        /// The bytes do not follow the JSON grammar.
        case syntax
        /// The bytes are not well-formed UTF-8.
        case invalidUTF8
        /// Arrays and objects are nested deeper than the parser's `maximumDepth`.
        case tooDeep
        /// An object contains the same key twice.
        case duplicateKey
        /// The input holds no value at all (nothing, or only whitespace).
        case empty
    }

    /// The category of the failure.
    public let kind: Kind
    /// A human-readable explanation that includes the offset where it applies.
    public let message: String
    /// The zero-based byte offset at which the problem was detected.
    public let offset: Int

    /// The human-readable message.
    public var description: String {
        message
    }

    init(_ kind: Kind, message: String, offset: Int) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// Builds the common "<detail> at byte <offset>" form.
    init(_ kind: Kind, _ detail: String, at offset: Int) {
        self.init(kind, message: "\(detail) at byte \(offset)", offset: offset)
    }
}
