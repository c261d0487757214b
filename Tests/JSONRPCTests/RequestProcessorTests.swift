import JSONRPC
import Synchronization
import TestSupport
import Testing

/// The processor against a small router: every framing and envelope rule of JSON-RPC 2.0, as a table.
struct RequestProcessorTests {
    struct Echo: Codable, Sendable { let text: String; let times: Int? }

    static let echo = RPCMethod<Echo, String>(
        MethodDescriptor(
            "test.echo", summary: "Echoes text.",
            params: [Property("text", .string(), required: true), Property("times", .integer(minimum: 1, maximum: 3))],
            result: .string(), access: .open, positional: true
        ))
    static let secret = RPCMethod<NoParams, String>(
        MethodDescriptor("test.secret", summary: "Needs login.", result: .string()))
    static let named = RPCMethod<[String: Int], Int>(
        MethodDescriptor(
            "test.named", summary: "By name only.", params: [Property("a", .integer())], result: .integer(),
            access: .open
        ))

    struct Denied: Error {}

    static func processor(maximumBatchSize: Int = 5) -> RequestProcessor<Bool> {
        var router = Router<Bool>()
        router.register(echo, in: .plain(.open)) { params, _ in
            String(repeating: params.text, count: params.times ?? 1)
        }
        router.register(secret, in: .plain(.authenticated)) { _, _ in "secret" }
        router.register(named, in: .plain(.open)) { params, _ in params["a"] ?? 0 }
        return RequestProcessor(
            router: router, limits: ProtocolLimits(maximumBatchSize: maximumBatchSize, maximumDepth: 16),
            middleware: [LoginRule(), AnswerBudget()], mapError: { _, _, _ in .internalError(errorID: "x") }
        )
    }

    static func answer(_ line: String, loggedIn: Bool = false) async -> String? {
        let outcome = await processor().respond(toLine: Array(line.utf8), context: loggedIn)
        return outcome.response.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        // A call by name, ids of every kind echoed exactly.
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"},"id":1}"#,
            #"{"id":1,"jsonrpc":"2.0","result":"a"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"},"id":"abc"}"#,
            #"{"id":"abc","jsonrpc":"2.0","result":"a"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"},"id":1.50}"#,
            #"{"id":1.50,"jsonrpc":"2.0","result":"a"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"},"id":null}"#,
            #"{"id":null,"jsonrpc":"2.0","result":"a"}"#
        ),
        // Params by position, in the declared order; CRLF line ending.
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":["b",2],"id":2}"# + "\r",
            #"{"id":2,"jsonrpc":"2.0","result":"bb"}"#
        ),
        // Envelope errors.
        (
            "{not json",
            #"{"error":{"code":-32700,"data":{"detail":"…","kind":"parse_error"},"message":"Parse error"},"id":null,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"1.0","method":"test.echo","id":3}"#,
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":3,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#,
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":null,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"x","params":"bar","id":4}"#,
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":4,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"x","id":{}}"#,
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":null,"jsonrpc":"2.0"}"#
        ),
        (
            "1",
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":null,"jsonrpc":"2.0"}"#
        ),
        (
            "[]",
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":null,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"no.such","id":5}"#,
            #"{"error":{"code":-32601,"data":{"kind":"method_not_found","method":"no.such"},"message":"Method not found"},"id":5,"jsonrpc":"2.0"}"#
        ),
        // Params errors name every failing field at once.
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":{"times":"x","extra":1},"id":6}"#,
            #"{"error":{"code":-32602,"data":{"fields":{"extra":"unknown field","text":"is required","times":"expected integer, found string"},"kind":"invalid_params"},"message":"Invalid params"},"id":6,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a","times":9},"id":7}"#,
            #"{"error":{"code":-32602,"data":{"fields":{"times":"must be between 1 and 3"},"kind":"invalid_params"},"message":"Invalid params"},"id":7,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"test.named","params":[1],"id":8}"#,
            #"{"error":{"code":-32602,"data":{"detail":"…","fields":{},"kind":"invalid_params"},"message":"Invalid params"},"id":8,"jsonrpc":"2.0"}"#
        ),
        (
            #"{"jsonrpc":"2.0","method":"test.echo","params":["a",1,2],"id":9}"#,
            #"{"error":{"code":-32602,"data":{"detail":"…","fields":{},"kind":"invalid_params"},"message":"Invalid params"},"id":9,"jsonrpc":"2.0"}"#
        ),
        // Access control runs before the handler.
        (
            #"{"jsonrpc":"2.0","method":"test.secret","id":10}"#,
            #"{"error":{"code":-32001,"data":{"kind":"unauthenticated"},"message":"Log in first"},"id":10,"jsonrpc":"2.0"}"#
        ),
    ])
    func singleRequests(line: String, expected: String) async throws {
        let answer = try #require(await Self.answer(line))
        #expect(Self.matches(answer, expected), "got \(answer)")
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"}}"#,
        #"{"jsonrpc":"2.0","method":"no.such.method"}"#,
        #"{"jsonrpc":"2.0","method":"test.echo","params":{"wrong":1}}"#,
        #"[{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"}},{"jsonrpc":"2.0","method":"x"}]"#,
        "",
        "   \r",
    ])
    func notificationsAndBlankLinesGetNoAnswer(line: String) async {
        #expect(await Self.answer(line) == nil)
    }

    @Test func batchAnswersEachRequestInOrderAndSkipsNotifications() async throws {
        let line =
            #"[{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"},"id":1},"#
            + #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"n"}},1,"#
            + #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"b"},"id":2}]"#
        let answer = try #require(await Self.answer(line))
        let expected =
            #"[{"id":1,"jsonrpc":"2.0","result":"a"},"#
            + #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request"},"message":"Invalid Request"},"id":null,"jsonrpc":"2.0"},"#
            + #"{"id":2,"jsonrpc":"2.0","result":"b"}]"#
        #expect(Self.matches(answer, expected), "got \(answer)")
    }

    @Test func batchOverTheLimitGetsOneInvalidRequest() async throws {
        let member = #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"a"},"id":1}"#
        let line = "[" + Array(repeating: member, count: 6).joined(separator: ",") + "]"
        let answer = try #require(await Self.answer(line))
        let expected =
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request","limit":5},"message":"Invalid Request"},"id":null,"jsonrpc":"2.0"}"#
        #expect(Self.matches(answer, expected), "got \(answer)")
    }

    /// Counts the runs of a handler.
    final class Runs: Sendable {
        let count = Mutex(0)
    }

    /// A processor with an answer budget of `budget` bytes whose `test.echo` counts its runs in `runs`.
    static func budgeted(_ budget: Int, runs: Runs) -> RequestProcessor<Bool> {
        var router = Router<Bool>()
        router.register(echo, in: .plain(.open)) { params, _ in
            runs.count.withLock { $0 += 1 }
            return String(repeating: params.text, count: params.times ?? 1)
        }
        return RequestProcessor(
            router: router, limits: ProtocolLimits(maximumAnswerBytes: budget), middleware: [AnswerBudget()],
            mapError: { _, _, _ in .internalError(errorID: "x") })
    }

    @Test func aBatchStopsRunningRequestsOnceItsAnswersReachTheBudget() async throws {
        let runs = Runs()
        // Each answer, {"id":N,"jsonrpc":"2.0","result":"aaa"}, is 39 bytes: the third reaches 100.
        let request = { (id: Int) in #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"aaa"},"id":\#(id)}"# }
        let notification = #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"n"}}"#
        let line =
            "[" + ([request(1), request(2), request(3), request(4), notification, request(5)]).joined(separator: ",")
            + "]"
        let outcome = await Self.budgeted(100, runs: runs).respond(toLine: Array(line.utf8), context: false)
        let answer = String(decoding: try #require(outcome.response), as: UTF8.self)
        let refused =
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request","limit":100},"message":"Invalid Request"},"#
        let expected =
            "[" + (1...3).map { #"{"id":\#($0),"jsonrpc":"2.0","result":"aaa"},"# }.joined()
            + refused + #""id":4,"jsonrpc":"2.0"},"# + refused + #""id":5,"jsonrpc":"2.0"}]"#
        #expect(Self.matches(answer, expected), "got \(answer)")
        #expect(answer.contains("not run"))
        #expect(
            runs.count.withLock { $0 } == 4,
            "requests 4 and 5 were not run; the notification, which adds no answer, was")
        #expect(outcome.requestCount == 6)
    }

    @Test func aSingleAnswerOverTheBudgetIsAnErrorInstead() async throws {
        let runs = Runs()
        let processor = Self.budgeted(4, runs: runs)
        let small = #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"aa"},"id":1}"#
        let large = #"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"aaa"},"id":2}"#
        let fits = await processor.respond(toLine: Array(small.utf8), context: false)
        #expect(fits.response.map { String(decoding: $0, as: UTF8.self) } == #"{"id":1,"jsonrpc":"2.0","result":"aa"}"#)
        let over = await processor.respond(toLine: Array(large.utf8), context: false)
        let answer = String(decoding: try #require(over.response), as: UTF8.self)
        let expected =
            #"{"error":{"code":-32600,"data":{"detail":"…","kind":"invalid_request","limit":4},"message":"Invalid Request"},"id":2,"jsonrpc":"2.0"}"#
        #expect(Self.matches(answer, expected), "got \(answer)")
    }

    @Test func authorizedConnectionReachesProtectedMethod() async throws {
        let answer = await Self.answer(#"{"jsonrpc":"2.0","method":"test.secret","id":1}"#, loggedIn: true)
        #expect(answer == #"{"id":1,"jsonrpc":"2.0","result":"secret"}"#)
    }

    @Test func tooDeepNestingIsAParseError() async throws {
        let line = String(repeating: "[", count: 100_000)
        let answer = try #require(await Self.answer(line))
        #expect(answer.contains(#""code":-32700"#))
    }

    /// Compares two JSON texts; an expected string "…" stands for any value.
    static func matches(_ actual: String, _ expected: String) -> Bool {
        guard let actualValue = try? JSONParser().parse(actual), let expectedValue = try? JSONParser().parse(expected)
        else { return false }
        return JSONPattern.matches(actualValue, expectedValue)
    }
}

/// Routes are found by name length, then name: every registered name is found, and near misses are not.
struct RouteLookupTests {
    @Test func everyNameIsFoundAndNearMissesAreNot() {
        let router = RequestProcessorTests.processor().router
        for descriptor in router.descriptors {
            #expect(router.route(for: descriptor.name)?.descriptor.name == descriptor.name)
        }
        for miss in ["test.echO", "test.ech", "test.echoo", "", "test.secreT", String(repeating: "x", count: 500)] {
            #expect(router.route(for: miss) == nil, "\(miss)")
        }
    }
}

/// The access rule of these tests, as a middleware: a logged-in method refuses a caller that is not.
struct LoginRule: RequestMiddleware {
    func prepare(_ descriptor: MethodDescriptor, _ loggedIn: Bool) throws -> Preparation? {
        if descriptor.access == .authenticated && !loggedIn {
            throw RPCError(code: -32001, message: "Log in first", kind: "unauthenticated")
        }
        return nil
    }
}

/// A handler is one plain async function: a call is found, let in and its params checked when it starts, its
/// handler runs in `finish`, and a handler answers alike whether it suspends or not.
struct ExecutionTests {
    struct Fail: Codable, Sendable {
        let fail: Bool?
    }
    struct Failed: Error {}

    static func method(_ name: String, access: MethodDescriptor.Access = .open) -> RPCMethod<Fail, String> {
        RPCMethod(
            MethodDescriptor(
                name, summary: "", params: [Property("fail", .boolean())], result: .string(), access: access))
    }

    /// Counts the handlers' runs.
    final class Runs: Sendable {
        let count = Mutex(0)
    }

    /// The one function both routes answer with.
    static func answer(_ params: Fail, runs: Runs) throws -> String {
        runs.count.withLock { $0 += 1 }
        if params.fail == true { throw Failed() }
        return "done"
    }

    static func processor(runs: Runs = Runs()) -> RequestProcessor<Bool> {
        var router = Router<Bool>()
        router.register(method("x.now"), in: .plain(.open)) { params, _ in try answer(params, runs: runs) }
        router.register(method("x.later"), in: .plain(.open)) { params, _ in
            await Task.yield()
            return try answer(params, runs: runs)
        }
        router.register(method("x.closed", access: .authenticated), in: .plain(.authenticated)) { _, _ in "never" }
        return RequestProcessor(
            router: router, limits: ProtocolLimits(), middleware: [LoginRule()],
            mapError: { _, _, _ in .internalError(errorID: "x") })
    }

    static func line(_ method: String, _ params: String = "{}") -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params),"id":1}"#.utf8)
    }

    static func request(_ method: String, _ params: String = "{}") throws -> RPCRequest {
        guard case .call(let request) = processor().read(line(method, params), limits: ProtocolLimits()) else {
            throw Failed()
        }
        return request
    }

    static func text(_ outcome: LineOutcome) -> String {
        String(decoding: outcome.response ?? [], as: UTF8.self)
    }

    @Test func aCallStartsLetInWithItsParamsCheckedAndItsHandlerRunsInFinish() async throws {
        let runs = Runs()
        let processor = Self.processor(runs: runs)
        guard
            case .running(let call) = processor.start(
                try Self.request("x.now"), context: false, limits: ProtocolLimits())
        else {
            Issue.record("a call let in is left to run")
            return
        }
        #expect(call.isReady, "no middleware has anything to wait for")
        #expect(runs.count.withLock { $0 } == 0, "a call left to run has not run yet")
        let answer = await processor.finish(call, context: false, limits: ProtocolLimits())
        #expect(Self.text(answer) == #"{"id":1,"jsonrpc":"2.0","result":"done"}"#)
        #expect(runs.count.withLock { $0 } == 1)
    }

    @Test(arguments: [#"{}"#, #"{"fail":true}"#, #"{"fail":"yes"}"#, #"{"other":1}"#])
    func aHandlerAnswersAlikeWhetherItSuspendsOrNot(params: String) async {
        let processor = Self.processor()
        let now = await processor.respond(toLine: Self.line("x.now", params), context: false)
        let later = await processor.respond(toLine: Self.line("x.later", params), context: false)
        #expect(Self.text(now) == Self.text(later))
        #expect(!Self.text(now).isEmpty)
    }

    @Test func authorisationAndParamsAreCheckedBeforeAnyHandlerRuns() throws {
        let runs = Runs()
        let processor = Self.processor(runs: runs)
        for (method, params, code) in [("x.closed", "{}", "-32001"), ("x.later", #"{"fail":"yes"}"#, "-32602")] {
            guard
                case .answered(let refused) = processor.start(
                    try Self.request(method, params), context: false, limits: ProtocolLimits())
            else {
                Issue.record("\(method) is refused when it starts")
                continue
            }
            #expect(Self.text(refused).contains(#""code":\#(code)"#), "\(method)")
        }
        #expect(runs.count.withLock { $0 } == 0)
    }
}

/// The answer budget as a middleware: an answer within it goes on, one larger is refused naming the limit.
struct AnswerBudgetTests {
    @Test func anAnswerLargerThanTheBudgetIsRefused() throws {
        let budget = AnswerBudget<Bool>()
        let limits = ProtocolLimits(maximumAnswerBytes: 4)
        try budget.check(answer: Array("1234".utf8), limits: limits)
        #expect(throws: RPCError.self) { try budget.check(answer: Array("12345".utf8), limits: limits) }
        #expect(try budget.prepare(MethodDescriptor("x", summary: "", result: .string()), true) == nil)
    }
}

/// A route group hands its handlers the context it enters from the caller's, as the daemon's logged-in group
/// hands its handlers the login.
struct RouteGroupTests {
    static let whoami = RPCMethod<NoParams, String>(
        MethodDescriptor("test.whoami", summary: "", result: .string(), access: .open))

    @Test func aHandlerGetsItsGroupsContext() async {
        var router = Router<Bool>()
        let named = RouteGroup<Bool, String>(access: .open) { loggedIn in loggedIn ? "alice" : "nobody" }
        router.register(Self.whoami, in: named) { _, name in name }
        let processor = RequestProcessor(
            router: router, limits: ProtocolLimits(), middleware: [],
            mapError: { _, _, _ in .internalError(errorID: "x") })
        let line = Array(#"{"jsonrpc":"2.0","method":"test.whoami","id":1}"#.utf8)
        for (loggedIn, name) in [(true, "alice"), (false, "nobody")] {
            let answer = await processor.respond(toLine: line, context: loggedIn).response
            #expect(
                answer.map { String(decoding: $0, as: UTF8.self) } == #"{"id":1,"jsonrpc":"2.0","result":"\#(name)"}"#)
        }
    }
}
