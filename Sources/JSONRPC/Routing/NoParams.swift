/// The params of a method that takes none: an absent params member, `{}` or `[]`.
public struct NoParams: Codable, Sendable {
    /// Creates the empty params.
    public init() {}
}
