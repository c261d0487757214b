import Foundation
import Synchronization

/// Runs an async body to its end on the calling thread, so the stores written once as async code
/// (`TwitterSQL/Stores`) can run inside GRDB's synchronous `read` and `write` closures, on the database queue GRDB
/// allows that connection on.
///
/// The body runs as a task whose executor preference is this executor: every job of it (its start, and its
/// return from any await) is queued here, and the calling thread runs the queue until the body has finished.
/// SQLite's driver never suspends (its statements run synchronously), so a body is usually one job.
final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `finished` are only touched under `condition`'s lock.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    /// Queues `job` for the calling thread, waking it.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on the calling thread, returning what it returns or throwing what it throws.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) throws -> Result {
        let executor = CallingThreadExecutor()
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        Task(executorPreference: executor) {
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            executor.finish()
        }
        executor.runUntilFinished()
        guard let result = outcome.withLock({ $0 }) else {
            throw CancellationError()
        }
        return try result.get()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs the queued jobs as they come until the body has finished.
    private func runUntilFinished() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            let ready = jobs
            jobs.removeAll()
            let done = finished && ready.isEmpty
            condition.unlock()
            if done { return }
            for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
