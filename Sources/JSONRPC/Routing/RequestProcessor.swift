/// Turns one line of input into the line to answer with: parsing, batches, notifications, routing and errors.
///
/// The one dispatch: a call finds its route, goes through the middleware in their order (catching up, the access
/// rule, a write's rate: `RequestMiddleware`), has its params checked, runs its handler, and its answer goes back
/// through the middleware (the answer budget). It holds no connection state; the caller passes its own `Context`
/// through to the middleware and the handlers.
public struct RequestProcessor<Context: Sendable>: Sendable {
    /// Turns any error a handler threw into the error object to send.
    public typealias ErrorMapper = @Sendable (any Error, RPCRequest, Context) -> RPCError

    /// What one line produced.
    public typealias Outcome = LineOutcome

    /// The router holding the methods.
    public let router: Router<Context>
    private let currentLimits: @Sendable () -> ProtocolLimits
    /// Each route's steps before its handler, by the route's number: the middleware that `prepares` its method, in
    /// order. Decided once, not asked at every call: the four steps a ping went through, each doing nothing for an
    /// open method, cost it about 700 instructions with the copies of the steps (callgrind).
    private let preparing: [[any RequestMiddleware<Context>]]
    /// The steps that check answers (`checksAnswers`), in order.
    private let checking: [any RequestMiddleware<Context>]
    private let mapError: ErrorMapper

    /// Creates a processor over `router` whose limits are read anew for every line, so a reload applies
    /// to connections already open; every call goes through `middleware`, in that order.
    public init(
        router: Router<Context>, limits: @escaping @Sendable () -> ProtocolLimits,
        middleware: [any RequestMiddleware<Context>], mapError: @escaping ErrorMapper
    ) {
        self.router = router
        self.currentLimits = limits
        var preparing = Array(repeating: [any RequestMiddleware<Context>](), count: router.routeCount)
        for route in router.routes {
            preparing[route.number] = middleware.filter { $0.prepares(route.descriptor) }
        }
        self.preparing = preparing
        self.checking = middleware.filter(\.checksAnswers)
        self.mapError = mapError
    }

    /// Creates a processor over `router` with fixed limits.
    public init(
        router: Router<Context>, limits: ProtocolLimits, middleware: [any RequestMiddleware<Context>],
        mapError: @escaping ErrorMapper
    ) {
        self.init(router: router, limits: { limits }, middleware: middleware, mapError: mapError)
    }

    /// The limits in force now.
    public var limits: ProtocolLimits { currentLimits() }

    /// Answers one line (without its newline); a blank line is ignored.
    public nonisolated(nonsending) func respond(toLine line: [UInt8], context: Context) async -> Outcome {
        let limits = self.limits
        switch read(line, limits: limits) {
        case .answered(let outcome): return outcome
        case .batch(let members): return await respond(toBatch: members, context: context)
        case .call(let request):
            switch start(request, context: context, limits: limits) {
            case .answered(let outcome): return outcome
            case .running(let call): return await finish(call, context: context, limits: limits)
            }
        }
    }

    /// Parses one line under `limits` (read once a line, by the caller): what is wrong with it is answered at
    /// once; a call or a batch is left to run.
    @inline(__always)
    public func read(_ line: [UInt8], limits: ProtocolLimits) -> LineRead {
        if LineFraming.isBlank(line) { return .answered(Outcome(response: nil, requestCount: 0)) }
        let parser = JSONParser(maximumDepth: limits.maximumDepth)
        switch LineFraming.withPayload(of: line, parser.parseRequest) {
        case .failure(let error):
            return .answered(Outcome(response: errorLine(.parseError(error.description), id: .null), requestCount: 1))
        case .success(.batch(let members)): return .batch(members)
        case .success(.invalid(let envelope)):
            return .answered(Outcome(response: errorLine(envelope.error, id: envelope.id), requestCount: 1))
        case .success(.request(let request)): return .call(request)
        }
    }

    /// `read` and `start` at once, for a connection's hot path: without the `LineRead` and `CallStart` between them
    /// a ping costs about 100 instructions fewer (callgrind).
    public func attempt(_ line: [UInt8], context: Context, limits: ProtocolLimits) -> LineAttempt {
        switch read(line, limits: limits) {
        case .answered(let outcome): return .answered(outcome)
        case .batch(let members): return .batch(members)
        case .call(let request):
            switch start(request, context: context, limits: limits) {
            case .answered(let outcome): return .answered(outcome)
            case .running(let call): return .running(call)
            }
        }
    }

    /// Starts one call: finds the route, runs the middleware's checks and the params check, all synchronous, up
    /// to the handler, or up to a middleware's preparation, which `finish` runs first. What refuses the call is
    /// answered here.
    @inline(__always)
    public func start(_ request: RPCRequest, context: Context, limits: ProtocolLimits) -> CallStart {
        guard let route = router.route(for: request.method) else {
            return .answered(answer(.failure(.methodNotFound(request.method)), to: request))
        }
        do {
            let steps = preparing[route.number]
            var index = 0
            while index < steps.count {
                if let preparation = try steps[index].prepare(route.descriptor, context) {
                    return .running(
                        RunningCall(
                            request: request, method: route, members: nil, preparation: (preparation, index + 1)))
                }
                index += 1
            }
            let members = try route.checkedParams(request.params)
            return .running(RunningCall(request: request, method: route, members: members, preparation: nil))
        } catch {
            return .answered(answer(.failure(rpcError(error, request, context)), to: request))
        }
    }

    /// Runs a started call to its answer: its preparation, if it has one, then its handler, then the middleware's
    /// checks of the answer under `limits`.
    public nonisolated(nonsending) func finish(_ call: RunningCall, context: Context, limits: ProtocolLimits) async
        -> Outcome
    {
        answer(await result(of: call, context: context, limits: limits), to: call.request)
    }

    private nonisolated(nonsending) func result(of call: RunningCall, context: Context, limits: ProtocolLimits) async
        -> Result<[UInt8], RPCError>
    {
        // Every running call was started from a route of this router (`start`).
        let route = unsafeDowncast(call.method, to: Router<Context>.Route.self)
        do {
            let encoded: [UInt8]
            if let (preparation, next) = call.preparation {
                encoded = try await preparation { try await serve(route, call.request, context: context, from: next) }
            } else {
                encoded = try await route.handler.run(call.members ?? [:], context)
            }
            var index = 0
            while index < checking.count {
                try checking[index].check(answer: encoded, limits: limits)
                index += 1
            }
            return .success(encoded)
        } catch {
            return .failure(rpcError(error, call.request, context))
        }
    }

    /// The rest of a call after a preparation: the route's steps from `index` on, the params check, the handler.
    private nonisolated(nonsending) func serve(
        _ route: Router<Context>.Route, _ request: RPCRequest, context: Context, from index: Int
    )
        async throws -> [UInt8]
    {
        let steps = preparing[route.number]
        var index = index
        while index < steps.count {
            if let preparation = try steps[index].prepare(route.descriptor, context) {
                let next = index + 1
                return try await preparation { try await serve(route, request, context: context, from: next) }
            }
            index += 1
        }
        return try await route.handler.run(try route.checkedParams(request.params), context)
    }

    /// Runs one call for a transport that does not speak in lines (HTTP): the same route, middleware, params check
    /// and handler as a line's call, to its encoded result or the error a line would have been answered with.
    public nonisolated(nonsending) func run(_ method: String, params: JSONValue?, context: Context) async -> Result<
        [UInt8], RPCError
    > {
        let request = RPCRequest(id: .null, method: method, params: params)
        guard let route = router.route(for: method) else { return .failure(.methodNotFound(method)) }
        do {
            let encoded = try await serve(route, request, context: context, from: 0)
            let limits = self.limits
            var index = 0
            while index < checking.count {
                try checking[index].check(answer: encoded, limits: limits)
                index += 1
            }
            return .success(encoded)
        } catch {
            return .failure(rpcError(error, request, context))
        }
    }

    private func answer(_ result: Result<[UInt8], RPCError>, to request: RPCRequest) -> Outcome {
        Outcome(line: responseLine(result, id: request.id), requestCount: 1)
    }

    /// Answers a batch, its members one after another.
    public nonisolated(nonsending) func respond(toBatch members: [JSONValue], context: Context) async -> Outcome {
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
                answer = await respond(to: member, context: context, limits: limits)
            } else {
                answer = await refuse(member, context: context, limits: limits)
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
    private nonisolated(nonsending) func refuse(_ value: JSONValue, context: Context, limits: ProtocolLimits) async
        -> [UInt8]?
    {
        let budget = limits.maximumAnswerBytes
        guard case .success(let request) = RPCRequest.validate(value), let id = request.id else {
            return await respond(to: value, context: context, limits: limits)
        }
        let error = RPCError.invalidRequest(
            "not run: the batch's answers reached \(budget) bytes, the most one line is answered with; "
                + "send this request again in a later line",
            ["limit": .number(JSONNumber(budget))])
        return errorLine(error, id: id)
    }

    /// Answers one member of a batch, in turn; nil for a notification.
    private nonisolated(nonsending) func respond(to value: JSONValue, context: Context, limits: ProtocolLimits) async
        -> [UInt8]?
    {
        let request: RPCRequest
        switch RPCRequest.validate(value) {
        case .failure(let envelope):
            return errorLine(envelope.error, id: envelope.id)
        case .success(let valid):
            request = valid
        }
        let outcome: Outcome
        switch start(request, context: context, limits: limits) {
        case .answered(let answered): outcome = answered
        case .running(let call): outcome = await finish(call, context: context, limits: limits)
        }
        return outcome.response
    }

    /// The answer to a request with `id` in parts, the result's bytes as the handler gave them, not copied (see
    /// `ResponseLine`); nil for a notification.
    private func responseLine(_ result: Result<[UInt8], RPCError>, id: RPCID?) -> ResponseLine? {
        guard let id else { return nil }
        var line: [UInt8] = []
        switch result {
        case .success(let encoded) where !encoded.isEmpty:
            return ResponseLine(id: id, result: encoded)
        case .success(let encoded):
            // No result is empty JSON; if one were, its line is written as it is, not closed after nothing.
            ResponseWriter.writeResult(encoded, id: id, into: &line)
        case .failure(let error):
            ResponseWriter.writeError(error, id: id, into: &line)
        }
        return ResponseLine(head: line)
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
