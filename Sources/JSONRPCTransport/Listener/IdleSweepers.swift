import NIOCore
import Synchronization

/// One `IdleSweeper` per event loop and timeout, for all the connections a server serves on that loop.
final class IdleSweepers: Sendable {
    private struct Key: Hashable {
        var eventLoop: ObjectIdentifier
        var timeout: TimeAmount
    }

    private let sweepers = Mutex<[Key: NIOLoopBound<IdleSweeper>]>([:])

    /// The sweeper of `eventLoop` for `timeout`; called on that loop.
    func sweeper(on eventLoop: any EventLoop, timeout: TimeAmount) -> IdleSweeper {
        let key = Key(eventLoop: ObjectIdentifier(eventLoop), timeout: timeout)
        let bound = sweepers.withLock { sweepers in
            if let existing = sweepers[key] { return existing }
            let made = NIOLoopBound(IdleSweeper(timeout: timeout, eventLoop: eventLoop), eventLoop: eventLoop)
            sweepers[key] = made
            return made
        }
        return bound.value
    }
}
