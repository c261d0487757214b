import Foundation
import JSONRPC

/// Methods with the shapes the daemon's methods have: strings, bounded integers, optionals, nested objects,
/// arrays, positional params, and one that needs a login.
enum FuzzRouter {
    struct Post: Codable, Sendable { let text: String; let idempotencyKey: String? }
    struct Fetch: Codable, Sendable { let sinceId: Int64?; let maxId: Int64?; let limit: Int?; let author: String? }
    struct Nested: Codable, Sendable { let profile: Profile; let tags: [String]; let when: Date? }
    struct Profile: Codable, Sendable { let firstName: String; let age: Int }

    /// The access rule: a logged-in method refuses a caller that is not.
    struct LoginRule: RequestMiddleware {
        func prepare(_ descriptor: MethodDescriptor, _ loggedIn: Bool) throws -> Preparation? {
            if descriptor.access == .authenticated && !loggedIn {
                throw RPCError(code: -32001, message: "Log in first", kind: "unauthenticated")
            }
            return nil
        }
    }

    static func processor() -> RequestProcessor<Bool> {
        var router = Router<Bool>()
        router.register(
            RPCMethod<Post, String>(
                MethodDescriptor(
                    "tweets.post", summary: "",
                    params: [Property("text", .string(), required: true), Property("idempotencyKey", .string())],
                    result: .string(), access: .open, positional: true
                )), in: .plain(.open)
        ) { params, _ in params.text }
        router.register(
            RPCMethod<Fetch, JSONValue>(
                MethodDescriptor(
                    "tweets.fetch", summary: "",
                    params: [
                        Property("sinceId", .integer(minimum: 0)), Property("maxId", .integer(minimum: 0)),
                        Property("limit", .integer(minimum: 1, maximum: 200)), Property("author", .string()),
                    ],
                    result: .any(), access: .open
                )), in: .plain(.open)
        ) { params, _ in JSONValue.number(JSONNumber(params.limit ?? 20)) }
        router.register(
            RPCMethod<Nested, String>(
                MethodDescriptor(
                    "profile.nested", summary: "",
                    params: [
                        Property(
                            "profile",
                            .object([
                                Property("firstName", .string(), required: true),
                                Property("age", .integer(), required: true),
                            ]), required: true),
                        Property("tags", .array(of: .string()), required: true), Property("when", .timestamp()),
                    ],
                    result: .string(), access: .open
                )), in: .plain(.open)
        ) { params, _ in params.profile.firstName }
        router.register(
            RPCMethod<NoParams, String>(
                MethodDescriptor("system.ping", summary: "", result: .string(), access: .open, positional: true)),
            in: .plain(.open)
        ) { _, _ in "pong" }
        router.register(
            RPCMethod<NoParams, String>(MethodDescriptor("auth.whoami", summary: "", result: .string())),
            in: .plain(.authenticated)
        ) { _, _ in "me" }
        return RequestProcessor(
            router: router, limits: ProtocolLimits(maximumBatchSize: 50, maximumDepth: 64),
            middleware: [LoginRule(), AnswerBudget()], mapError: { _, _, _ in .internalError(errorID: "fuzz") }
        )
    }
}
