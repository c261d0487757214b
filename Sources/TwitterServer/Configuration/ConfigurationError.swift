// @MemberwiseInit
/// A configuration value that cannot be used, named by its key so the operator can find it.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key, dotted for tables (`limits.max_batch`), or the flag name.
    public var key: String
    /// What is wrong with it.
    public var problem: String

    /// The message printed at start-up.
    public var description: String {
        key.isEmpty ? problem : "\(key): \(problem)"
    }
}
