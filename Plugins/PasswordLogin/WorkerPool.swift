import Foundation
import Synchronization
import TwitterCore

/// A fixed set of threads for blocking work (Argon2id hashing) with a bounded queue.
///
/// Hashing must not run on an event loop or on Swift's cooperative pool, where it would stall every other
/// request. When the queue is full, `run` throws `.unavailable` at once instead of letting memory pile up.
final class WorkerPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var queued: Int { jobs.count - head }
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let maximumQueued: Int
    /// The number of threads.
    let threadCount: Int

    /// Starts `threads` worker threads named `name-N`, which live as long as the process; at most `queueLimit`
    /// jobs may wait.
    init(threads: Int, queueLimit: Int, name: String) {
        threadCount = max(1, threads)
        maximumQueued = max(1, queueLimit)
        // Returns once every thread runs under its name, so whoever looks at the threads finds them all.
        let started = DispatchSemaphore(value: 0)
        for index in 0..<threadCount {
            let threadName = "\(name)-\(index)"
            let thread = Thread { [self] in
                Self.nameKernelThread(threadName)
                started.signal()
                work()
            }
            thread.name = threadName
            thread.start()
        }
        for _ in 0..<threadCount { started.wait() }
    }

    /// Gives the calling thread its kernel name (at most 15 bytes), which `top -H` and /proc show: Foundation's
    /// `Thread.name` on Linux does not set it, and `pthread_setname_np` is not visible to Swift. Best effort.
    private static func nameKernelThread(_ name: String) {
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(String(decoding: name.utf8.prefix(15), as: UTF8.self), file)
        fclose(file)
    }

    /// Runs `job` on a worker thread and returns its result; throws `.unavailable` when the queue is full.
    func run<Result: Sendable>(_ job: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = state.withLock { state -> Bool in
                guard state.queued < maximumQueued else { return false }
                state.jobs.append { continuation.resume(with: Swift.Result { try job() }) }
                return true
            }
            guard accepted else {
                continuation.resume(
                    throwing: TwitterError.unavailable("The daemon is busy hashing passwords; try again shortly"))
                return
            }
            available.signal()
        }
    }

    private func work() {
        while true {
            available.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.head += 1
                // Compact now and then so the array does not grow with every job ever run.
                if state.head > 64 && state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            // One signal per queued job, so there is always one to take.
            job?()
        }
    }
}
