import JSONRPC
import Synchronization

/// The notification lines a connection was sent (`auth.revoked`, a subscription's stream), in order.
final class NotificationInbox: Sendable {
    /// What a wait ends with. Not `JSONValue?`: JSONValue takes `nil` as its own literal, `null`.
    private enum Arrival: Sendable {
        case line(JSONValue)
        case timedOut
    }

    private struct State {
        var lines: [JSONValue] = []
        var waiter: CheckedContinuation<Arrival, Never>?
        var expired = false
    }

    private let state = Mutex(State())

    /// Keeps `line`, or hands it to the test waiting for it.
    func deliver(_ line: [UInt8]) {
        guard let value = try? JSONParser(maximumDepth: 512).parse(line) else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Arrival, Never>? in
            guard let waiter = state.waiter else {
                state.lines.append(value)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .line(value))
    }

    /// The notifications received and not yet taken, taken now.
    func takeAll() -> [JSONValue] {
        state.withLock { state in
            defer { state.lines = [] }
            return state.lines
        }
    }

    /// The next notification; `Optional.none` when none arrives within `timeout`.
    func next(within timeout: Duration = .seconds(5)) async -> JSONValue? {
        state.withLock { $0.expired = false }
        let arrival = await withTaskGroup(of: Arrival.self) { group in
            group.addTask { await self.wait() }
            group.addTask {
                // Cancelled once the line arrived: then nothing expires.
                if (try? await Task.sleep(for: timeout)) != nil { self.expire() }
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            // Either the line, or the timeout; when the line came first, the sleeper ends as it is cancelled.
            guard case .line = first else { return await group.next() ?? first }
            return first
        }
        guard case .line(let value) = arrival else { return Optional.none }
        return value
    }

    private func wait() async -> Arrival {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Arrival? in
                if !state.lines.isEmpty { return .line(state.lines.removeFirst()) }
                if state.expired { return .timedOut }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func expire() {
        let waiter = state.withLock { state -> CheckedContinuation<Arrival, Never>? in
            state.expired = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .timedOut)
    }
}
