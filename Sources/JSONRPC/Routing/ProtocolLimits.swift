/// The limits the protocol layer enforces on every line.
public struct ProtocolLimits: Sendable, Equatable {
    /// The most requests one batch may hold.
    public var maximumBatchSize: Int
    /// The deepest nesting of arrays and objects a line may have.
    public var maximumDepth: Int

    /// Creates limits; the defaults are the daemon's defaults.
    public init(maximumBatchSize: Int = 1000, maximumDepth: Int = 64) {
        self.maximumBatchSize = maximumBatchSize
        self.maximumDepth = maximumDepth
    }
}
