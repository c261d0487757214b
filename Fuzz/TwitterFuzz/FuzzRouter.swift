import Foundation
import JSONRPC

/// Methods with the shapes the daemon's methods have: strings, bounded integers, optionals, nested objects,
/// arrays, positional params, and one that needs a login.
enum FuzzRouter {
    struct Post: Decodable { let text: String; let idempotencyKey: String? }
    struct Fetch: Decodable { let sinceId: Int64?; let maxId: Int64?; let limit: Int?; let author: String? }
    struct Nested: Decodable { let profile: Profile; let tags: [String]; let when: Date? }
    struct Profile: Decodable { let firstName: String; let age: Int }

    static func processor() -> RequestProcessor<Bool> {
        var router = Router<Bool>()
        router.register(
            MethodDescriptor(
                "tweets.post", summary: "",
                params: [Property("text", .string(), required: true), Property("idempotencyKey", .string())],
                result: .string(), access: .open, positional: true
            ), .awaited { (params: Post, _) in params.text })
        router.register(
            MethodDescriptor(
                "tweets.fetch", summary: "",
                params: [
                    Property("sinceId", .integer(minimum: 0)), Property("maxId", .integer(minimum: 0)),
                    Property("limit", .integer(minimum: 1, maximum: 200)), Property("author", .string()),
                ],
                result: .any(), access: .open
            ), .awaited { (params: Fetch, _) in JSONValue.number(JSONNumber(params.limit ?? 20)) })
        router.register(
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
            ), .awaited { (params: Nested, _) in params.profile.firstName })
        router.register(
            MethodDescriptor("system.ping", summary: "", result: .string(), access: .open, positional: true),
            .awaited {
                (_: NoParams, _) in "pong"
            })
        router.register(
            MethodDescriptor("auth.whoami", summary: "", result: .string()), .awaited { (_: NoParams, _) in "me" })
        return RequestProcessor(
            router: router, limits: ProtocolLimits(maximumBatchSize: 50, maximumDepth: 64),
            authorize: { descriptor, loggedIn in
                if descriptor.access == .authenticated && !loggedIn {
                    throw RPCError(code: -32001, message: "Log in first", kind: "unauthenticated")
                }
            },
            mapError: { _, _, _ in .internalError(errorID: "fuzz") }
        )
    }
}
