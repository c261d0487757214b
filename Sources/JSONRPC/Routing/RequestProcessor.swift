/// Turns one line of input into the line to answer with: parsing, batches, notifications, routing and errors.
///
/// It holds no connection state; the caller passes its own `Context` through to the handlers.
public struct RequestProcessor<Context: Sendable>: Sendable {
    /// Checks whether `context` may call the method; throws the error to answer with when it may not.
    public typealias Authorizer = @Sendable (MethodDescriptor, Context) throws -> Void
    /// Turns any error a handler threw into the error object to send.
    public typealias ErrorMapper = @Sendable (any Error, RPCRequest, Context) -> RPCError

    /// What one line produced.
    public typealias Outcome = LineOutcome
    /// What answering a line at once came to.
    public typealias Attempt = LineAttempt

    /// The router holding the methods.
    public let router: Router<Context>
    private let currentLimits: @Sendable () -> ProtocolLimits
    private let authorize: Authorizer
    private let mapError: ErrorMapper

    /// Creates a processor over `router` whose limits are read anew for every line, so a reload applies
    /// to connections already open.
    public init(
        router: Router<Context>, limits: @escaping @Sendable () -> ProtocolLimits, authorize: @escaping Authorizer,
        mapError: @escaping ErrorMapper
    ) {
        self.router = router
        self.currentLimits = limits
        self.authorize = authorize
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
        switch answerNow(toLine: line, context: context) {
        case .answered(let outcome): return outcome
        case .mustWait(let pending): return await respond(to: pending, context: context)
        case .started(let call): return await finish(call, context: context)
        }
    }

    /// Answers one line without suspending when it can: errors, and single calls to methods registered to
    /// answer now. The rest, batches included, come back parsed, to be answered by `respond(to:context:)`.
    ///
    /// This is what lets a connection answer a ping with no task at all.
    ///
    /// With `answeringCalls` false only errors are answered and startable calls started: a caller that is
    /// still waiting for started calls must not run a read that could miss their effect.
    public func answerNow(toLine line: [UInt8], context: Context, answeringCalls: Bool = true) -> Attempt {
        if LineFraming.isBlank(line) { return .answered(Outcome(response: nil, requestCount: 0)) }
        let parser = JSONParser(maximumDepth: limits.maximumDepth)
        let request: RPCRequest
        switch LineFraming.withPayload(of: line, parser.parseRequest) {
        case .failure(let error):
            return .answered(Outcome(response: errorLine(.parseError(error.description), id: .null), requestCount: 1))
        case .success(.batch(let members)):
            return .mustWait(PendingLine(content: .batch(members)))
        case .success(.invalid(let envelope)):
            return .answered(Outcome(response: errorLine(envelope.error, id: envelope.id), requestCount: 1))
        case .success(.request(let valid)):
            request = valid
        }
        switch callNow(request, context: context, answeringCalls: answeringCalls) {
        case .answered(let result):
            return .answered(Outcome(response: answerLine(result, id: request.id), requestCount: 1))
        case .started(let call):
            return .started(call)
        case .mustWait:
            return .mustWait(PendingLine(content: .request(request)))
        }
    }

    /// Answers a started call once its result is there.
    public func finish(_ call: StartedCall, context: Context) async -> Outcome {
        let result: Result<[UInt8], RPCError>
        do {
            result = .success(try await call.wait())
        } catch {
            result = .failure(rpcError(error, call.request, context))
        }
        return Outcome(response: answerLine(result, id: call.request.id), requestCount: 1)
    }

    /// Answers a line that `answerNow` could not.
    public func respond(to pending: PendingLine, context: Context) async -> Outcome {
        switch pending.content {
        case .batch(let members):
            return await respond(toBatch: members, context: context)
        case .request(let request):
            return Outcome(response: await respond(to: request, context: context), requestCount: 1)
        }
    }

    private func respond(toBatch members: [JSONValue], context: Context) async -> Outcome {
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
        var answers: [[UInt8]] = []
        for member in members {
            if let answer = await respond(to: member, context: context) { answers.append(answer) }
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

    /// Answers one request object; nil for a notification.
    private func respond(to value: JSONValue, context: Context) async -> [UInt8]? {
        switch RPCRequest.validate(value) {
        case .failure(let envelope):
            return errorLine(envelope.error, id: envelope.id)
        case .success(let request):
            return await respond(to: request, context: context)
        }
    }

    /// Answers one valid request; nil for a notification.
    private func respond(to request: RPCRequest, context: Context) async -> [UInt8]? {
        answerLine(await call(request, context: context), id: request.id)
    }

    /// The answer to a request with `id`; nil for a notification.
    private func answerLine(_ result: Result<[UInt8], RPCError>, id: RPCID?) -> [UInt8]? {
        guard let id else { return nil }
        var line: [UInt8] = []
        switch result {
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

    /// Makes a call as far as it can go without waiting.
    private func callNow(_ request: RPCRequest, context: Context, answeringCalls: Bool) -> CallNow {
        guard let route = router.route(for: request.method) else {
            return .answered(.failure(.methodNotFound(request.method)))
        }
        guard route.start != nil || (answeringCalls && route.invokeNow != nil) else { return .mustWait }
        do {
            try authorize(route.descriptor, context)
            let members = try route.checkedParams(request.params)
            if let start = route.start {
                return .started(StartedCall(request: request, wait: try start(members, context)))
            }
            guard let result = try route.invokeNow?(members, context) else { return .mustWait }
            return .answered(.success(result))
        } catch {
            return .answered(.failure(rpcError(error, request, context)))
        }
    }

    private func call(_ request: RPCRequest, context: Context) async -> Result<[UInt8], RPCError> {
        guard let route = router.route(for: request.method) else {
            return .failure(.methodNotFound(request.method))
        }
        do {
            try authorize(route.descriptor, context)
            let members = try route.checkedParams(request.params)
            return .success(try await route.invoke(members, context))
        } catch {
            return .failure(rpcError(error, request, context))
        }
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
