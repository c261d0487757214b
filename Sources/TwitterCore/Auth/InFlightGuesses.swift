import Synchronization

/// The guesses this daemon has counted against each throttle key and not yet judged, so that a guess refused only
/// because others are in flight waits for their verdict instead of failing.
///
/// `LoginThrottle` counts a guess in the store before its credentials are checked, so twenty right logins at
/// once from one uid (a script running twctl in parallel) would look like twenty failures to each other; the ones
/// past the free allowance wait here until one in flight is judged, then ask again: right ones pass, and after
/// five judged failures the rest are refused, so at most the free allowance still reach the check. Admissions
/// take turns (`turn`), so none is refused by one that is counted in the store but not yet entered here.
final class InFlightGuesses: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// Moves at every verdict, so a guess refused just before one can tell that it may ask again.
        var verdicts = 0
    }

    private let state = Mutex(State())
    /// The admissions of this daemon, one at a time.
    let turn = AdmissionTurn()

    /// How many verdicts there have been so far.
    var verdicts: Int { state.withLock { $0.verdicts } }

    /// Counts a guess under `keys` as in flight.
    func enter(_ keys: [String]) {
        state.withLock { state in
            for key in keys { state.counts[key, default: 0] += 1 }
        }
    }

    /// Ends a guess under `keys` with its verdict, waking every guess waiting for one.
    func leave(_ keys: [String]) {
        let waiting = state.withLock { state in
            for key in keys {
                let count = (state.counts[key] ?? 1) - 1
                state.counts[key] = count > 0 ? count : nil
            }
            state.verdicts += 1
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// True once the guess may ask again: at once when a verdict came since `verdicts`, else when the next one
    /// comes while a guess under one of `keys` is in flight; false when none is, and waiting would not help.
    func waitForVerdict(of keys: [String], since verdicts: Int) async -> Bool {
        enum Next { case askAgain, wait, refuse }
        let next = state.withLock { state -> Next in
            if state.verdicts != verdicts { return .askAgain }
            return keys.contains { state.counts[$0] != nil } ? .wait : .refuse
        }
        switch next {
        case .askAgain: return true
        case .refuse: return false
        case .wait:
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    // Checked again under the lock: a verdict may have come since.
                    guard state.verdicts == verdicts else { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            return true
        }
    }
}

/// A turn at a time, in arrival order, across suspension points (which a `Mutex` cannot be held over).
actor AdmissionTurn {
    private var taken = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// Waits for the turn.
    func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    /// Hands the turn to the next in line, or frees it.
    func give() {
        if queue.isEmpty { taken = false } else { queue.removeFirst().resume() }
    }
}
