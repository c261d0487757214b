import Synchronization

/// A result that one task sets and another awaits, whichever comes first: how a post queued for a group commit
/// learns its own outcome, in either store.
///
/// Inlinable, so each store specializes it for its own `Value`: unspecialized, every post paid for generic
/// metadata looked up at run time (`OutcomeSlot<Tweet>.State`, its `Mutex`, the continuation), about 2 % of
/// the daemon's time under durable posts (perf, 64 × 4 posts). The state is set in the initializer, not in its
/// declaration: a declaration's initial value is a function of its own that the store cannot specialize.
public final class OutcomeSlot<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var result: Result<Value, any Error>?
        /// Unchecked: the lock lets exactly one of `fulfil` and `value` resume it, once, and the checked kind
        /// allocates a canary object per post to find out what the lock already ensures.
        @usableFromInline var waiter: UnsafeContinuation<Value, any Error>?

        @inlinable init() {}
    }

    @usableFromInline let state: Mutex<State>

    /// An empty slot.
    @inlinable public init() {
        state = Mutex(State())
    }

    /// Sets the result, waking the waiter if there is one; later calls are ignored.
    @inlinable public func fulfil(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Value, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// The result, waiting for it if it is not set yet.
    @inlinable public func value() async throws -> Value {
        try await withUnsafeThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
