import JSONRPC
import Logging
import TestSupport
import Testing
import TwitterAPI
import TwitterCore
import TwitterSQLite

@testable import TwitterServer

/// rpc.discover is generated from the router's own descriptors; these tests keep the two in step.
struct DiscoveryTests {
    static func processor() throws -> RequestProcessor<RequestContext> {
        try TestAssembly.processor()
    }

    @Test func everyRoutedMethodIsDescribedWithParamsAndResult() async throws {
        let processor = try Self.processor()
        let session = ConnectionSession(id: 1, peer: PeerCredentials(userID: 0, groupID: 0, processID: 1))
        let line = Array(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#.utf8)
        let outcome = await processor.respond(toLine: line, context: RequestContext(session: session))
        let response = try JSONParser(maximumDepth: 512).parse(try #require(outcome.response))
        guard case .array(let methods)? = response["result"]?["methods"] else {
            Issue.record("no methods in \(response)")
            return
        }
        let described = Dictionary(
            uniqueKeysWithValues: methods.compactMap { method -> (String, JSONValue)? in
                guard case .string(let name)? = method["name"] else { return nil }
                return (name, method)
            })
        let routed = processor.router.descriptors
        #expect(Set(described.keys) == Set(routed.map(\.name)))
        for descriptor in routed {
            let method = try #require(described[descriptor.name])
            #expect(method["result"]?["schema"] == descriptor.result.jsonSchema, "\(descriptor.name)")
            guard case .array(let params)? = method["params"] else {
                Issue.record("\(descriptor.name) has no params array")
                continue
            }
            #expect(params.count == descriptor.params.count, "\(descriptor.name)")
            for (param, property) in zip(params, descriptor.params) {
                #expect(param["name"] == .string(property.name))
                #expect(param["required"] == .bool(property.isRequired))
                #expect(param["schema"] == property.schema.jsonSchema)
            }
        }
    }

    @Test(arguments: TwitterError.Kind.allCases)
    func everyErrorKindHasACodeAndKeepsItsKind(kind: TwitterError.Kind) {
        let error = TwitterError(kind, "message", details: ["retryAfter": .int(3)]).rpcError
        let expected: [TwitterError.Kind: Int] = [
            .invalidParams: -32602, .unauthenticated: -32001, .invalidCredentials: -32002, .forbidden: -32003,
            .notFound: -32004, .conflict: -32005, .rateLimited: -32006, .unavailable: -32008, .internal: -32603,
        ]
        #expect(error.code == expected[kind])
        #expect(ErrorCodes.kind(of: error.code) == kind, "clients read the same table back")
        #expect(error.data["kind"] == .string(kind.rawValue))
        #expect(error.data["retryAfter"] == 3)
    }

    @Test func unknownErrorsBecomeInternalWithAnIDAndNoDetail() {
        struct DatabaseExploded: Error { let sql = "SELECT secret FROM users" }
        let mapper = ErrorMapper(logger: Logger(label: "test"))
        let session = ConnectionSession(id: 1, peer: PeerCredentials(userID: 0, groupID: 0, processID: 1))
        let error = mapper.map(
            DatabaseExploded(), request: RPCRequest(id: .null, method: "m", params: nil),
            context: RequestContext(session: session)
        )
        #expect(error.code == -32603)
        #expect(error.data["kind"] == "internal")
        guard case .string(let errorID)? = error.data["errorId"] else {
            Issue.record("no errorId")
            return
        }
        #expect(errorID.count == 36)
        var bytes: [UInt8] = []
        error.data.write(into: &bytes)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("SELECT"))
    }
}

/// The params each method declares in rpc.discover are exactly those its `Decodable` type reads, required
/// where it requires them: the hand-written schema cannot drift from the type.
struct DescriptorAgreementTests {
    @Test func everyMethodsDeclaredParamsAreWhatItsTypeDecodes() throws {
        let processor = try TestAssembly.processor()
        var checked = 0
        for descriptor in processor.router.descriptors {
            let route = try #require(processor.router.route(for: descriptor.name))
            // Free-form params (a dictionary) read no fixed keys.
            guard route.handler.paramsType != [String: Int].self else { continue }
            let read = KeyRecordingDecoder.members(of: route.handler.paramsType)
            let declared = Dictionary(uniqueKeysWithValues: descriptor.params.map { ($0.name, $0.isRequired) })
            #expect(read == declared, "\(descriptor.name): the type reads \(read), rpc.discover says \(declared)")
            checked += 1
        }
        #expect(checked >= 20)
    }
}
