/// Durable storage of login throttle counts.
public protocol ThrottleStoring: Sendable {
    /// The state of `key`, if it has failures on record.
    func throttleState(for key: String) async throws -> ThrottleState?
    /// Reads, transforms and writes the state of `key` in one transaction, so concurrent failures all count.
    func updateThrottleState(
        for key: String, _ transform: @escaping @Sendable (ThrottleState?) -> ThrottleState
    ) async throws
    /// Forgets the counts of `keys`.
    func resetThrottleStates(for keys: [String]) async throws
}
