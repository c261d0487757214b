import JSONRPC
import NIOCore
import Synchronization

/// Calls waiting for their answer, by id, and the notifications stream; fed by the connection's reader.
final class PendingCalls: Sendable {
    private struct State {
        var waiting: [Int: EventLoopPromise<JSONValue>] = [:]
        var nextID = 1
        var isClosed = false
    }

    private let state = Mutex(State())
    let notifications: AsyncStream<Notification>
    private let notificationSink: AsyncStream<Notification>.Continuation

    init() {
        (notifications, notificationSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    func makeID() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Registers `promise` for the answer to `id`; fails it at once if the connection is gone.
    func expect(_ id: Int, _ promise: EventLoopPromise<JSONValue>) {
        let closed = state.withLock { state in
            if state.isClosed { return true }
            state.waiting[id] = promise
            return false
        }
        if closed { promise.fail(ClientError.connectionClosed) }
    }

    func cancel(_ id: Int, error: any Error) {
        let promise = state.withLock { $0.waiting.removeValue(forKey: id) }
        promise?.fail(error)
    }

    /// Routes one line from the daemon: a response (or a batch of them) or a notification.
    func receive(_ value: JSONValue) {
        switch value {
        case .array(let members):
            members.forEach(receive)
        case .object(let members):
            if case .string(let method)? = members["method"], members["id"] == nil {
                notificationSink.yield(Notification(method: method, params: members["params"] ?? .null))
                return
            }
            guard case .number(let number)? = members["id"], let id = number.int else { return }
            let promise = state.withLock { $0.waiting.removeValue(forKey: id) }
            if let error = members["error"] {
                promise?.fail(ClientError.remote(Self.rpcError(from: error)))
            } else {
                promise?.succeed(members["result"] ?? .null)
            }
        default:
            return
        }
    }

    /// Fails every waiting call: the connection is gone.
    func close() {
        let waiting = state.withLock { state in
            state.isClosed = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for promise in waiting.values { promise.fail(ClientError.connectionClosed) }
        notificationSink.finish()
    }

    static func rpcError(from value: JSONValue) -> RPCError {
        guard case .object(let members) = value,
            case .number(let code)? = members["code"], let codeValue = code.int,
            case .string(let message)? = members["message"]
        else {
            return RPCError(code: RPCError.StandardCode.internalError, message: "malformed error", kind: "internal")
        }
        return RPCError(code: codeValue, message: message, data: members["data"] ?? .object([:]))
    }
}

/// A JSON-RPC notification pushed by the daemon, such as `tweets.new`.
public struct Notification: Sendable {
    /// The notification's method.
    public var method: String
    /// Its params.
    public var params: JSONValue
}
