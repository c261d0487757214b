// @MemberwiseInit
/// The limits the protocol layer enforces on every line.
public struct ProtocolLimits: Sendable, Equatable {
    /// The most requests one batch may hold.
    public var maximumBatchSize: Int = 1000
    /// The deepest nesting of arrays and objects a line may have.
    public var maximumDepth: Int = 64
    /// The most bytes of answers one line may be given: the whole answer is built in memory before it is
    /// sent, so without it one batch of large reads could cost tens of megabytes.
    public var maximumAnswerBytes: Int = ProtocolLimits.defaultMaximumAnswerBytes

    /// The daemon's default answer budget, 8 MiB: over a hundred 200-tweet timeline pages (about 75 KB each).
    public static let defaultMaximumAnswerBytes = 8 << 20
}
