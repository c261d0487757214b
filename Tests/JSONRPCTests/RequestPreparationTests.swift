import JSONRPC
import Synchronization
import Testing

/// A middleware's preparation, which the processor runs around the rest of the call, the access rule after it: what the step learns decides the answer, as a
/// revocation another daemon made, caught up with, ends a login before its next request is served.
struct RequestPreparationTests {
    static let secret = RPCMethod<NoParams, String>(
        MethodDescriptor("test.secret", summary: "Needs login.", result: .string()))
    static let open = RPCMethod<NoParams, String>(
        MethodDescriptor("test.open", summary: "Anyone.", result: .string(), access: .open))

    /// The step: logs the caller out, as a revocation caught up with would, before the rest of the call runs.
    struct CatchUp: RequestMiddleware {
        func prepare(_ descriptor: MethodDescriptor, _ login: Login) throws -> Preparation? {
            guard descriptor.access != .open else { return nil }
            return { serve in
                login.steps.withLock { $0 += 1 }
                login.loggedIn.withLock { $0 = false }
                return try await serve()
            }
        }
    }

    /// The access rule, after the step.
    struct Access: RequestMiddleware {
        func prepare(_ descriptor: MethodDescriptor, _ login: Login) throws -> Preparation? {
            if descriptor.access == .authenticated && !login.loggedIn.withLock({ $0 }) {
                throw RPCError(code: -32001, message: "Log in first", kind: "unauthenticated")
            }
            return nil
        }
    }

    /// Whether the caller is logged in, and how many steps ran; the step logs it out.
    final class Login: Sendable {
        let loggedIn = Mutex(true)
        let steps = Mutex(0)
    }

    static func processor(_ login: Login) -> RequestProcessor<Login> {
        var router = Router<Login>()
        router.register(secret, in: .plain(.authenticated)) { _, _ in "secret" }
        router.register(open, in: .plain(.open)) { _, _ in "open" }
        return RequestProcessor(
            router: router, limits: { ProtocolLimits(maximumBatchSize: 5, maximumDepth: 16) },
            middleware: [CatchUp(), Access()], mapError: { _, _, _ in .internalError(errorID: "x") })
    }

    static func answer(_ line: String, _ login: Login) async -> String? {
        await processor(login).respond(toLine: Array(line.utf8), context: login).response.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test func aCallIsAuthorisedOnlyAfterItsStep() async {
        let login = Login()
        let answer = await Self.answer(#"{"jsonrpc":"2.0","method":"test.secret","id":1}"#, login)
        #expect(answer?.contains(#""code":-32001"#) == true, "\(answer ?? "nil")")
        #expect(login.steps.withLock { $0 } == 1)
    }

    @Test func aCallWithoutAStepIsAnsweredAsBefore() async {
        let login = Login()
        let answer = await Self.answer(#"{"jsonrpc":"2.0","method":"test.open","id":1}"#, login)
        #expect(answer == #"{"id":1,"jsonrpc":"2.0","result":"open"}"#)
        #expect(login.steps.withLock { $0 } == 0)
    }

    @Test func aBatchMemberIsAuthorisedAfterItsStepToo() async {
        let login = Login()
        let answer = await Self.answer(
            #"[{"jsonrpc":"2.0","method":"test.open","id":1},{"jsonrpc":"2.0","method":"test.secret","id":2}]"#, login)
        #expect(answer?.contains(#""result":"open""#) == true, "\(answer ?? "nil")")
        #expect(answer?.contains(#""code":-32001"#) == true, "\(answer ?? "nil")")
    }

    /// A step that counts the calls it is asked about in the caller's `steps`, and says it prepares only logged-in
    /// methods.
    struct Counting: RequestMiddleware {
        func prepares(_ descriptor: MethodDescriptor) -> Bool { descriptor.access != .open }
        func prepare(_ descriptor: MethodDescriptor, _ login: Login) throws -> Preparation? {
            login.steps.withLock { $0 += 1 }
            return nil
        }
    }

    @Test func aStepIsAskedOnlyAboutTheMethodsItPrepares() async {
        var router = Router<Login>()
        router.register(Self.secret, in: .plain(.authenticated)) { _, _ in "secret" }
        router.register(Self.open, in: .plain(.open)) { _, _ in "open" }
        let processor = RequestProcessor(
            router: router, limits: ProtocolLimits(), middleware: [Counting()],
            mapError: { _, _, _ in .internalError(errorID: "x") })
        let login = Login()
        for id in 1...3 {
            let line = #"{"jsonrpc":"2.0","method":"test.open","id":\#(id)}"#
            _ = await processor.respond(toLine: Array(line.utf8), context: login)
        }
        #expect(login.steps.withLock { $0 } == 0)
        let line = #"{"jsonrpc":"2.0","method":"test.secret","id":4}"#
        let answer = await processor.respond(toLine: Array(line.utf8), context: login).response
        #expect(answer.map { String(decoding: $0, as: UTF8.self) } == #"{"id":4,"jsonrpc":"2.0","result":"secret"}"#)
        #expect(login.steps.withLock { $0 } == 1)
    }

    /// A step that prepares nothing, and says so: asked anyway, it refuses with a code of its own.
    struct LeftOut: RequestMiddleware {
        func prepares(_ descriptor: MethodDescriptor) -> Bool { false }
        func prepare(_ descriptor: MethodDescriptor, _ login: Login) throws -> Preparation? {
            throw RPCError(code: -32099, message: "asked though left out", kind: "leftOut")
        }
    }

    /// The rest of a call after a preparation goes on from the step after it among the route's own steps, not among
    /// all of them: the step left out between catching up and the access rule is never asked, and the access rule,
    /// after the catch-up, still refuses. On a line and through `encodedCall` (the HTTP transport's way in) alike.
    @Test func afterAPreparationTheRoutesNextStepRuns() async {
        var router = Router<Login>()
        router.register(Self.secret, in: .plain(.authenticated)) { _, _ in "secret" }
        let processor = RequestProcessor(
            router: router, limits: ProtocolLimits(), middleware: [CatchUp(), LeftOut(), Access()],
            mapError: { _, _, _ in .internalError(errorID: "x") })
        let onALine = Login()
        let line = #"{"jsonrpc":"2.0","method":"test.secret","id":1}"#
        let answer = await processor.respond(toLine: Array(line.utf8), context: onALine).response
        #expect(answer.map { String(decoding: $0, as: UTF8.self) }?.contains(#""code":-32001"#) == true)
        #expect(onALine.steps.withLock { $0 } == 1)
        let inProcess = Login()
        do {
            _ = try await processor.call(Self.secret, context: inProcess)
            Issue.record("answered, though the catch-up logged the caller out")
        } catch {
            #expect(error.code == -32001)
        }
        #expect(inProcess.steps.withLock { $0 } == 1)
    }
}
