/// The params of a method that takes none: an absent params member, `{}` or `[]`.
public struct NoParams: Decodable, Sendable {
    /// Creates the empty params.
    public init() {}
}
