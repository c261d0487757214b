import Logging
import ServiceLifecycle

/// Writes the rate buckets to the store every few seconds and once more at shutdown, so a restart keeps
/// every account's limits (a kill -9 loses at most the last interval's takes).
public struct RateBucketFlusher: Service {
    let limiter: WriteRateLimiter
    let interval: Duration
    let logger: Logger

    /// Flushes `limiter` every `interval`.
    public init(limiter: WriteRateLimiter, interval: Duration = .seconds(5), logger: Logger) {
        self.limiter = limiter
        self.interval = interval
        self.logger = logger
    }

    /// Runs until graceful shutdown, then flushes a last time.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            do {
                try await limiter.flush()
            } catch {
                logger.error("saving the rate limits failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
