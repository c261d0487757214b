/// Turns one line of input into the line to answer with: parsing, batches, notifications, routing and errors.
///
/// It holds no connection state; the caller passes its own `Context` through to the handlers.
public struct RequestProcessor<Context: Sendable>: Sendable {
    /// Checks whether `context` may call the method; throws the error to answer with when it may not.
    public typealias Authorizer = @Sendable (MethodDescriptor, Context) throws -> Void
    /// Serving a call, from its authorisation to its encoded result, wrapped by a preparation.
    public typealias Serve = @Sendable () async throws -> [UInt8]
    /// Runs what must come before serving a call (`serve` authorises it first), and serves it.
    public typealias Preparation = @Sendable (_ serve: Serve) async throws -> [UInt8]
    /// Says what must be awaited before `context` is authorised for the method, or nil when nothing must: a
    /// daemon sharing its database catches up with the others' revocations before it serves a logged-in request.
    public typealias Preparer = @Sendable (MethodDescriptor, Context) -> Preparation?
    /// Turns any error a handler threw into the error object to send.
    public typealias ErrorMapper = @Sendable (any Error, RPCRequest, Context) -> RPCError

    /// What one line produced.
    public typealias Outcome = LineOutcome

    /// The router holding the methods.
    public let router: Router<Context>
    private let currentLimits: @Sendable () -> ProtocolLimits
    private let authorize: Authorizer
    private let prepare: Preparer?
    private let mapError: ErrorMapper

    /// Creates a processor over `router` whose limits are read anew for every line, so a reload applies
    /// to connections already open.
    /// `prepare`, when given, runs before `authorize` for every call it returns a step for; such a call waits.
    public init(
        router: Router<Context>, limits: @escaping @Sendable () -> ProtocolLimits, authorize: @escaping Authorizer,
        prepare: Preparer? = nil, mapError: @escaping ErrorMapper
    ) {
        self.router = router
        self.currentLimits = limits
        self.authorize = authorize
        self.prepare = prepare
        self.mapError = mapError
    }

    /// Creates a processor over `router` with fixed limits.
    public init(
        router: Router<Context>, limits: ProtocolLimits, authorize: @escaping Authorizer,
        mapError: @escaping ErrorMapper
    ) {
        self.init(router: router, limits: { limits }, authorize: authorize, mapError: mapError)
    }

    /// The limits in force now.
    public var limits: ProtocolLimits { currentLimits() }

    /// Answers one line (without its newline); a blank line is ignored.
    public func respond(toLine line: [UInt8], context: Context) async -> Outcome {
        switch attempt(line, context: context, limits: limits) {
        case .answered(let outcome): return outcome
        case .running(let call): return await finish(call)
        case .batch(let members): return await respond(toBatch: members, context: context)
        }
    }

    /// Parses one line under `limits` (read once a line, by the caller): what is wrong with it is answered at
    /// once; a call or a batch is left to run.
    public func read(_ line: [UInt8], limits: ProtocolLimits) -> LineRead {
        switch parse(line, limits: limits) {
        case .answered(let outcome): .answered(outcome)
        case .parsed(.batch(let members)): .batch(members)
        case .parsed(.invalid(let envelope)): .answered(invalid(envelope))
        case .parsed(.request(let request)): .call(request)
        }
    }

    /// `read` and `start` at once, for a line to be answered now if it can be: a connection's hot path. Without
    /// the `LineRead` and `CallStart` between them a ping costs about 100 instructions fewer (callgrind).
    public func attempt(_ line: [UInt8], context: Context, limits: ProtocolLimits) -> LineAttempt {
        switch parse(line, limits: limits) {
        case .answered(let outcome): return .answered(outcome)
        case .parsed(.batch(let members)): return .batch(members)
        case .parsed(.invalid(let envelope)): return .answered(invalid(envelope))
        case .parsed(.request(let request)):
            switch dispatch(request, context: context) {
            case .answered(let result):
                return .answered(answer(result, to: request, budget: limits.maximumAnswerBytes))
            case .running(let method, let work):
                return .running(RunningCall(request: request, method: method, work: work))
            }
        }
    }

    /// The line parsed, or the answer to a line that is blank or not JSON.
    @inline(__always)
    private func parse(_ line: [UInt8], limits: ProtocolLimits) -> Parsed {
        if LineFraming.isBlank(line) { return .answered(Outcome(response: nil, requestCount: 0)) }
        let parser = JSONParser(maximumDepth: limits.maximumDepth)
        switch LineFraming.withPayload(of: line, parser.parseRequest) {
        case .failure(let error):
            return .answered(Outcome(response: errorLine(.parseError(error.description), id: .null), requestCount: 1))
        case .success(let parsed):
            return .parsed(parsed)
        }
    }

    private func invalid(_ envelope: EnvelopeError) -> Outcome {
        Outcome(response: errorLine(envelope.error, id: envelope.id), requestCount: 1)
    }

    /// Starts one call: finds the route, authorises, checks the params, and runs a synchronous handler to its
    /// answer. An asynchronous one comes back to be run with `finish(_:)`.
    ///
    /// This is what lets a connection answer a ping with no task at all.
    public func start(_ request: RPCRequest, context: Context, limits: ProtocolLimits) -> CallStart {
        switch dispatch(request, context: context) {
        case .answered(let result):
            return .answered(answer(result, to: request, budget: limits.maximumAnswerBytes))
        case .running(let method, let work):
            return .running(RunningCall(request: request, method: method, work: work))
        }
    }

    /// Runs a started call to its answer.
    public func finish(_ call: RunningCall) async -> Outcome {
        answer(await call.work(), to: call.request, budget: limits.maximumAnswerBytes)
    }

    private func answer(_ result: Result<[UInt8], RPCError>, to request: RPCRequest, budget: Int) -> Outcome {
        Outcome(line: responseLine(result, id: request.id, budget: budget), requestCount: 1)
    }

    /// The one dispatch: finds the route, authorises, checks the params, and runs a synchronous handler; an
    /// asynchronous one, or a call that must wait for a preparation, is handed back as the work to run.
    func dispatch(_ request: RPCRequest, context: Context) -> Dispatched {
        guard let route = router.route(for: request.method) else {
            return .answered(.failure(.methodNotFound(request.method)))
        }
        if let prepare, let preparation = prepare(route.descriptor, context) {
            // Authorised only once the preparation is done: what it learns (a revocation) decides the answer.
            return .running(route) {
                await result(of: request, context: context) {
                    try await preparation {
                        try authorize(route.descriptor, context)
                        return try await route.handler.run(try route.checkedParams(request.params), context)
                    }
                }
            }
        }
        let members: [String: JSONValue]
        do {
            try authorize(route.descriptor, context)
            members = try route.checkedParams(request.params)
        } catch {
            return .answered(.failure(rpcError(error, request, context)))
        }
        switch route.handler.body {
        case .synchronous(let run):
            do {
                return .answered(.success(try run(members, context)))
            } catch {
                return .answered(.failure(rpcError(error, request, context)))
            }
        case .asynchronous(let run):
            return .running(route) {
                await result(of: request, context: context) { try await run(members, context) }
            }
        case .cachedFirst(let look):
            do {
                switch try look(members, context) {
                case .answered(let answer): return .answered(.success(answer))
                case .missed(let run):
                    return .running(route) { await result(of: request, context: context) { try await run() } }
                }
            } catch {
                return .answered(.failure(rpcError(error, request, context)))
            }
        }
    }

    private func result(
        of request: RPCRequest, context: Context, _ work: () async throws -> [UInt8]
    ) async -> Result<[UInt8], RPCError> {
        do {
            return .success(try await work())
        } catch {
            return .failure(rpcError(error, request, context))
        }
    }
    /// Answers a batch, its members one after another.
    public func respond(toBatch members: [JSONValue], context: Context) async -> Outcome {
        let limits = self.limits
        guard !members.isEmpty else {
            return Outcome(
                response: errorLine(.invalidRequest("an empty batch is not a request"), id: .null),
                requestCount: 1)
        }
        guard members.count <= limits.maximumBatchSize else {
            let error = RPCError.invalidRequest(
                "a batch may hold at most \(limits.maximumBatchSize) requests",
                ["limit": .number(JSONNumber(limits.maximumBatchSize))]
            )
            return Outcome(response: errorLine(error, id: .null), requestCount: members.count)
        }
        // The whole answer is one line built in memory, so it is bounded: once the answers reach the budget, the
        // requests after are not run and each gets an error of its own, keeping one answer per request.
        let budget = limits.maximumAnswerBytes
        var spent = 2
        var answers: [[UInt8]] = []
        for member in members {
            let answer: [UInt8]?
            if spent < budget {
                answer = await respond(to: member, context: context, budget: budget)
            } else {
                answer = await refuse(member, context: context, budget: budget)
            }
            guard let answer else { continue }
            answers.append(answer)
            spent += answer.count + 1
        }
        guard !answers.isEmpty else { return Outcome(response: nil, requestCount: members.count) }
        var line: [UInt8] = [UInt8(ascii: "[")]
        for (index, answer) in answers.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(contentsOf: answer)
        }
        line.append(UInt8(ascii: "]"))
        return Outcome(response: line, requestCount: members.count)
    }

    /// Answers a member that comes after the batch's answers reached `budget`: a request is not run and gets an
    /// error; a notification, which adds nothing to the answer, still runs.
    private func refuse(_ value: JSONValue, context: Context, budget: Int) async -> [UInt8]? {
        guard case .success(let request) = RPCRequest.validate(value), let id = request.id else {
            return await respond(to: value, context: context, budget: budget)
        }
        let error = RPCError.invalidRequest(
            "not run: the batch's answers reached \(budget) bytes, the most one line is answered with; "
                + "send this request again in a later line",
            ["limit": .number(JSONNumber(budget))])
        return errorLine(error, id: id)
    }

    /// Answers one member of a batch, in turn; nil for a notification.
    private func respond(to value: JSONValue, context: Context, budget: Int) async -> [UInt8]? {
        let request: RPCRequest
        switch RPCRequest.validate(value) {
        case .failure(let envelope):
            return errorLine(envelope.error, id: envelope.id)
        case .success(let valid):
            request = valid
        }
        let result: Result<[UInt8], RPCError>
        switch dispatch(request, context: context) {
        case .answered(let answered): result = answered
        case .running(_, let work): result = await work()
        }
        return answerLine(result, id: request.id, budget: budget)
    }

    /// `answerLine`'s answer in parts, a large result's bytes as the handler gave them, not copied.
    private func responseLine(_ result: Result<[UInt8], RPCError>, id: RPCID?, budget: Int) -> ResponseLine? {
        guard let id else { return nil }
        // Only a large result is kept apart: a small one (a ping's) costs less copied into one line than written
        // in parts (with every result in parts a ping cost 8,855 instructions, 8,446 with this, 8,082 before).
        if case .success(let encoded) = result, encoded.count <= budget, encoded.count >= ResponseLine.largeResult {
            return ResponseLine(id: id, result: encoded)
        }
        return answerLine(result, id: id, budget: budget).map { ResponseLine(head: $0) }
    }

    /// The answer to a request with `id`; nil for a notification. A result larger than `budget` is answered
    /// with an error instead: a line's answer is never larger than the budget allows.
    private func answerLine(_ result: Result<[UInt8], RPCError>, id: RPCID?, budget: Int) -> [UInt8]? {
        guard let id else { return nil }
        var line: [UInt8] = []
        switch result {
        case .success(let encoded) where encoded.count > budget:
            let error = RPCError.invalidRequest(
                "the answer is larger than \(budget) bytes, the most one line is answered with; ask for less",
                ["limit": .number(JSONNumber(budget))])
            ResponseWriter.writeError(error, id: id, into: &line)
        case .success(let encoded):
            // The envelope around a result is under 64 bytes for any usual id; growing from empty reallocated
            // three times for every answer.
            line.reserveCapacity(encoded.count + 64)
            ResponseWriter.writeResult(encoded, id: id, into: &line)
        case .failure(let error):
            ResponseWriter.writeError(error, id: id, into: &line)
        }
        return line
    }

    private func rpcError(_ error: any Error, _ request: RPCRequest, _ context: Context) -> RPCError {
        if let error = error as? RPCError { return error }
        return mapError(error, request, context)
    }

    private func errorLine(_ error: RPCError, id: RPCID) -> [UInt8] {
        var line: [UInt8] = []
        ResponseWriter.writeError(error, id: id, into: &line)
        return line
    }
}
