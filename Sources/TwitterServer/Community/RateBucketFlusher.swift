import Logging
import ServiceLifecycle

/// Rate buckets kept in memory that can be written to the store.
public protocol RateBucketFlushing: Sendable {
    /// Writes the buckets changed since the last flush.
    func flush() async throws
}

/// Writes the rate buckets to the store every few seconds and once more at shutdown, so a restart keeps
/// every account's and every local user's limits (a kill -9 loses at most the last interval's takes).
public struct RateBucketFlusher: Service {
    let limiters: [any RateBucketFlushing]
    let interval: Duration
    let logger: Logger

    /// Flushes each of `limiters` every `interval`.
    public init(limiters: [any RateBucketFlushing], interval: Duration = .seconds(5), logger: Logger) {
        self.limiters = limiters
        self.interval = interval
        self.logger = logger
    }

    /// Runs until graceful shutdown, then flushes a last time.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            for limiter in limiters {
                do {
                    try await limiter.flush()
                } catch {
                    logger.error("saving the rate limits failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
