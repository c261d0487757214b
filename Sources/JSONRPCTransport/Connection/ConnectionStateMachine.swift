import NIOCore

/// The life of one connection as a value: whether it is answering, why it is winding down, when it closes.
///
/// ```
///            answerStarted            answerFinished
///   idle ─────────────────▶ answering ───────────────▶ idle
///    │                          │
///    │ closeRequested / input   │ closeRequested
///    │ ended, drained quiet     ▼
///    └────────────────────▶ closing ──── channelClosed ───▶ closed
/// ```
///
/// Orthogonal to that, an open connection may be winding down (`Ending`): the client shut its writing side
/// (it stays open while its subscriptions last), or the daemon is stopping (it closes once every line it
/// received is answered and nothing more arrived for a quiet period). The machine only decides; the
/// `ConnectionHandler` carries out the actions it returns, as swift-nio-extras' `ServerQuiescingHelper` does.
///
/// An impossible transition is a bug in the handler: a trap in debug builds, and a logged close in release
/// builds, never a hang.
struct ConnectionStateMachine {
    enum State: Equatable {
        /// Lines are answered as they arrive, on the event loop.
        case idle(Ending)
        /// A task is answering the rest of a read; the connection reads nothing more until it is done.
        /// `readPending` records that the channel asked to read meanwhile.
        case answering(Ending, readPending: Bool)
        /// Closes once the last answer is written.
        case closing(reason: String)
        /// The channel is closed.
        case closed(reason: String)
    }

    /// Why an open connection is winding down, if it is.
    enum Ending: Equatable {
        /// It is not.
        case none
        /// The client shut down its writing side: the connection stays open only for its subscriptions.
        case inputEnded
        /// The daemon is stopping. `sawActivity` records that something arrived or was answered since the last
        /// quiet-period check, so the connection is not quiet yet.
        case draining(sawActivity: Bool)
    }

    /// How long a draining connection must stay quiet, with every line answered, before it is closed: bytes the
    /// client sent before the stop may still be on their way, and their requests are answered too.
    static let drainQuietPeriod = TimeAmount.milliseconds(100)

    /// What the handler must do for a read request from the channel.
    enum ReadAction: Equatable {
        case read
        case hold
    }

    /// What the handler must do after an event.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Read again: reads were held while a task answered.
        case resumeReading
        /// Check again after `drainQuietPeriod` whether the connection is quiet (`quietPeriodEnded`).
        case scheduleQuietCheck
        /// Close once the last answer is written; log `reason` at notice level when `notice` is set.
        case close(reason: String, notice: Bool)
    }

    private(set) var state = State.idle(.none)

    /// True while lines may be answered: not answering in a task, not closing.
    var canAnswer: Bool {
        if case .idle = state { return true }
        return false
    }

    /// True once close has begun.
    var isClosing: Bool {
        switch state {
        case .closing, .closed: true
        case .idle, .answering: false
        }
    }

    /// The channel asks to read.
    mutating func readRequested() -> ReadAction {
        switch state {
        case .idle:
            return .read
        case .answering(let ending, _):
            state = .answering(ending, readPending: true)
            return .hold
        case .closing, .closed:
            return .hold
        }
    }

    /// Bytes arrived (a read cycle completed), framed into lines or not.
    mutating func bytesArrived() {
        switch state {
        case .idle(.draining): state = .idle(.draining(sawActivity: true))
        case .answering(.draining, let pending): state = .answering(.draining(sawActivity: true), readPending: pending)
        default: break
        }
    }

    /// A task starts answering the rest of a read.
    mutating func answerStarted() -> Action {
        guard case .idle(let ending) = state else { return invalid("answerStarted in \(state)") }
        state = .answering(ending, readPending: false)
        return .none
    }

    /// The task has answered. `.resumeReading` means the channel asked to read meanwhile: the handler answers
    /// the frames that wait first and then reads, through `readRequested`, which holds the read again if one
    /// of those frames started another task.
    mutating func answerFinished() -> Action {
        switch state {
        case .answering(let ending, let readPending):
            if case .draining = ending {
                state = .idle(.draining(sawActivity: true))
            } else {
                state = .idle(ending)
            }
            return readPending ? .resumeReading : .none
        case .closing, .closed:
            // Closed while the task answered (an error, a grace period that ran out): nothing left to do.
            return .none
        case .idle:
            return invalid("answerFinished while idle")
        }
    }

    /// The client shut down its writing side; every line before it is answered.
    mutating func inputEnded(hasSubscriptions: Bool) -> Action {
        guard case .idle(let ending) = state else { return isClosing ? .none : invalid("inputEnded in \(state)") }
        guard hasSubscriptions else { return close("client closed the connection") }
        if ending == .none { state = .idle(.inputEnded) }
        return .none
    }

    /// The connection's last subscription ended.
    mutating func subscriptionsEnded() -> Action {
        guard case .idle(.inputEnded) = state else { return .none }
        return close("client closed the connection")
    }

    /// The daemon begins a graceful shutdown.
    mutating func drainRequested() -> Action {
        switch state {
        case .idle(.draining), .answering(.draining, _), .closing, .closed:
            return .none
        case .idle:
            state = .idle(.draining(sawActivity: false))
            return .scheduleQuietCheck
        case .answering(_, let pending):
            state = .answering(.draining(sawActivity: true), readPending: pending)
            return .scheduleQuietCheck
        }
    }

    /// The quiet period of a draining connection is over; `framesWaiting` is true when frames wait for an answer.
    mutating func quietPeriodEnded(framesWaiting: Bool) -> Action {
        switch state {
        case .idle(.draining(let sawActivity)):
            if sawActivity || framesWaiting {
                state = .idle(.draining(sawActivity: false))
                return .scheduleQuietCheck
            }
            return close("daemon stopping")
        case .answering(.draining, let pending):
            state = .answering(.draining(sawActivity: false), readPending: pending)
            return .scheduleQuietCheck
        case .closing, .closed:
            return .none
        case .idle, .answering:
            return invalid("quietPeriodEnded without draining")
        }
    }

    /// Something ends the connection: a line too long, a timeout, an error.
    mutating func closeRequested(_ reason: String, notice: Bool = false) -> Action {
        guard !isClosing else { return .none }
        return close(reason, notice: notice)
    }

    /// The channel has closed; returns the reason the first time, nil after.
    mutating func channelClosed() -> String? {
        switch state {
        case .closed:
            return nil
        case .closing(let reason):
            state = .closed(reason: reason)
            return reason
        case .idle, .answering:
            state = .closed(reason: "client closed the connection")
            return "client closed the connection"
        }
    }

    private mutating func close(_ reason: String, notice: Bool = false) -> Action {
        state = .closing(reason: reason)
        return .close(reason: reason, notice: notice)
    }

    /// A transition the handler should never ask for: a trap while testing, a logged close in production.
    private mutating func invalid(_ what: String) -> Action {
        assertionFailure("ConnectionStateMachine: \(what)")
        return close("internal error: \(what)", notice: true)
    }
}
