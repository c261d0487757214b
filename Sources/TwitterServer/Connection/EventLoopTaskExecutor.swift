import NIOCore

/// Runs a connection's answering tasks on the connection's own event loop.
///
/// Without it every read would hop from the event loop to Swift's cooperative pool and every answer back,
/// two thread switches per batch that dominated the profile of pipelined pings. Nothing slow runs on the
/// loop itself: hashing has its own threads and SQLite its own queues, and both hand results back here.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
