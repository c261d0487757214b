import JSONRPC
import Synchronization
import TwitterCore

@testable import TwitterServer

/// One connection to an `InProcessDaemon`: its own `ConnectionSession` and `RequestContext`, as
/// `ConnectionHandler` makes them at accept, answering each line through the daemon's `RequestProcessor`.
///
/// Typed calls read as a client's: `try await alice.call(API.Tweets.post, .init(text: "hi"))` returns the decoded
/// result and throws the `RPCError` the daemon answered with; `refusal` returns that error and fails when the call
/// succeeded. Notification lines (`auth.revoked`, what a subscription streams) arrive in `inbox`.
final class Caller: Sendable {
    /// The connection's state: its peer credentials and its login.
    let session: ConnectionSession
    /// The notifications sent to this connection.
    let inbox: NotificationInbox
    private let context: RequestContext
    private let processor: RequestProcessor<RequestContext>
    private let requestIDs = Atomic<Int>(0)
    /// The subscriptions' forwarders, started as the connection starts them: once the answer is out.
    private let forwarders = Mutex<[Task<Void, Never>]>([])

    init(id: Int, peer: PeerCredentials, processor: RequestProcessor<RequestContext>) {
        let inbox = NotificationInbox()
        self.inbox = inbox
        self.session = ConnectionSession(id: id, peer: peer) { inbox.deliver($0) }
        self.context = RequestContext(session: session)
        self.processor = processor
    }

    /// What the daemon answered a request with.
    enum Answer: Sendable {
        case result(JSONValue)
        case error(RPCError)
    }

    /// A call answered with a result when the test expected an error.
    struct UnexpectedSuccess: Error, CustomStringConvertible {
        let method: String
        let result: JSONValue
        var description: String { "\(method) succeeded where it should be refused: \(result)" }
    }

    /// Sends one line (without its newline) and returns the parsed answer; nil when there is none.
    func send(_ line: String) async throws -> JSONValue? {
        let outcome = await processor.respond(toLine: Array(line.utf8), context: context)
        startSubscriptions()
        guard let response = outcome.response else { return nil }
        return try JSONParser(maximumDepth: 512).parse(response)
    }

    /// Calls `method` with untyped `params` (nil: no params member), for params no typed call can spell.
    func answer(_ method: String, _ params: JSONValue? = nil) async throws -> Answer {
        let id = requestIDs.add(1, ordering: .relaxed).newValue
        var line: [UInt8] = []
        line.append(contentsOf: #"{"jsonrpc":"2.0","id":\#(id),"method":"#.utf8)
        JSONValue.string(method).write(into: &line)
        if let params {
            line.append(contentsOf: #","params":"#.utf8)
            params.write(into: &line)
        }
        line.append(UInt8(ascii: "}"))
        return try await answer(line: line, method: method, id: id)
    }

    /// Calls `method` with untyped params and returns its result; throws the error it was answered with.
    @discardableResult
    func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        switch try await answer(method, params) {
        case .result(let result): return result
        case .error(let error): throw error
        }
    }

    /// Calls `method` with typed `params` and decodes its result; throws the error it was answered with.
    @discardableResult
    func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws -> Result {
        let result = try await call(method.name, try Self.encoded(params))
        return try JSONValueDecoder().decode(Result.self, from: result)
    }

    /// Calls a method that takes no params.
    @discardableResult
    func call<Result>(_ method: RPCMethod<NoParams, Result>) async throws -> Result {
        try JSONValueDecoder().decode(Result.self, from: try await call(method.name))
    }

    /// The error `method` is answered with; throws `UnexpectedSuccess` when it succeeds.
    func refusal(_ method: String, _ params: JSONValue? = nil) async throws -> RPCError {
        switch try await answer(method, params) {
        case .result(let result): throw UnexpectedSuccess(method: method, result: result)
        case .error(let error): return error
        }
    }

    /// The error a typed call is answered with; throws `UnexpectedSuccess` when it succeeds.
    func refusal<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws -> RPCError {
        try await refusal(method.name, try Self.encoded(params))
    }

    /// The error a call without params is answered with; throws `UnexpectedSuccess` when it succeeds.
    func refusal<Result>(_ method: RPCMethod<NoParams, Result>) async throws -> RPCError {
        try await refusal(method.name)
    }

    /// Closes the connection as the daemon does when the peer leaves: its subscriptions end, and their forwarders
    /// are awaited.
    func close() async {
        session.connectionClosed()
        for forwarder in forwarders.withLock({ $0 }) { await forwarder.value }
    }

    private func answer(line: [UInt8], method: String, id: Int) async throws -> Answer {
        let outcome = await processor.respond(toLine: line, context: context)
        startSubscriptions()
        let response = try JSONParser(maximumDepth: 512).parse(try outcome.response.orThrow("no answer to \(method)"))
        guard response["id"] == .number(JSONNumber(id)) else { throw HarnessError("\(method) answered \(response)") }
        if let result = response["result"] { return .result(result) }
        guard let error = response["error"], case .number(let code)? = error["code"], let code = code.int,
            case .string(let message)? = error["message"]
        else { throw HarnessError("\(method) answered \(response)") }
        return .error(RPCError(code: code, message: message, data: error["data"] ?? .null))
    }

    /// Starts the forwarders of the subscriptions the last line made, as `ConnectionHandler` does after an answer.
    private func startSubscriptions() {
        for forwarder in session.takeForwardersToStart() {
            let (session, inbox) = (session, inbox)
            let task = Task {
                await forwarder.run { line in
                    // As on the event loop: once `auth.revoked` is queued, no subscription line follows it.
                    guard session.isServingSubscriptions else { throw CancellationError() }
                    inbox.deliver(line)
                }
                _ = session.cancelSubscription(forwarder.id)
            }
            forwarders.withLock { $0.append(task) }
        }
    }

    static func encoded(_ params: some Encodable) throws -> JSONValue? {
        if params is NoParams { return nil }
        return try JSONParser(maximumDepth: 512).parse(try ResultEncoder.encode(params))
    }
}

/// The harness met an answer no JSON-RPC daemon sends.
struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

extension Optional {
    /// The value, or a `HarnessError` saying `problem`.
    func orThrow(_ problem: String) throws -> Wrapped {
        guard let self else { throw HarnessError(problem) }
        return self
    }
}
