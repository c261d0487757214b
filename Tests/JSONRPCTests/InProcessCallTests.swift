import JSONRPC
import Testing

/// `RequestProcessor.call`, another transport's way in: the same route, middleware and params check as a line.
struct InProcessCallTests {
    typealias Lines = RequestProcessorTests

    @Test func typedCallRunsTheHandler() async throws {
        let answer = try await Lines.processor().call(Lines.echo, .init(text: "ab", times: 2), context: false)
        #expect(answer == "abab")
    }

    @Test func theAccessRuleRefusesAsOnALine() async {
        await #expect(throws: RPCError.self) {
            _ = try await Lines.processor().call(Lines.secret, context: false)
        }
        let allowed = try? await Lines.processor().call(Lines.secret, context: true)
        #expect(allowed == "secret")
    }

    @Test func theParamsAreCheckedAgainstTheDescriptor() async {
        do {
            _ = try await Lines.processor().call(Lines.echo, .init(text: "a", times: 9), context: false)
            Issue.record("times 9 is over the declared maximum of 3")
        } catch {
            #expect(error.code == RPCError.StandardCode.invalidParams)
        }
    }
}
