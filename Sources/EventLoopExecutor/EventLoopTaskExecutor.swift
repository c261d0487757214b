import NIOCore

/// Runs tasks on one NIO event loop.
///
/// Two users: the server runs a connection's answering tasks on the connection's own loop (without it every
/// read would hop from the event loop to Swift's cooperative pool and every answer back, two thread switches
/// per batch that dominated the profile of pipelined pings; nothing slow runs on the loop itself: hashing has
/// its own threads and SQLite its own queues, and both hand results back there), and the PostgreSQL store sends
/// each query from its connection's loop (see `PostgresConnection.answers`).
public final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    /// An executor that runs every job on `eventLoop`.
    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Runs `job` on the loop, after what the loop already has queued.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
