import TwitterCore

/// An observer that hears nothing: for a store made on its own, whose committed events no read model follows.
/// The commit log (on PostgreSQL) still holds them for the other daemons.
public struct UnobservedCommits: CommitObserving {
    /// Creates the observer.
    public init() {}

    /// Drops the events.
    public func committed(_ events: [CommitEvent]) {}
}
