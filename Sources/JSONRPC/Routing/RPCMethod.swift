/// A method as both sides of the socket know it: its descriptor, and the Swift types of its params and result.
///
/// The daemon registers its handler under it (`Router.register(_:_:)` checks that the handler decodes
/// `Params`), `rpc.discover` publishes its descriptor, and a client calls it with typed params and gets a typed
/// result back, so a method's name and shape are written down once.
public struct RPCMethod<Params: Codable & Sendable, Result: Decodable & Sendable>: Sendable {
    /// What the router and `rpc.discover` know about the method.
    public let descriptor: MethodDescriptor

    /// The method's name, `namespace.verb`.
    public var name: String { descriptor.name }

    /// Declares a method.
    public init(_ descriptor: MethodDescriptor) {
        self.descriptor = descriptor
    }
}

extension Router {
    /// Registers `method` in `group`, answered by `handler`, whose result writes its own JSON: the one way to
    /// register a route (the overloads below differ only in how the result is encoded, chosen at compile time so
    /// that the hot methods skip `JSONEncoder` without a cast per call).
    ///
    /// A method whose declared access is not the group's is a programming error of the assembly, caught at
    /// start-up like a name registered twice.
    @inlinable
    public mutating func register<Params, Result, Group, Answer: JSONWritable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, in group: RouteGroup<Context, Group>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Params, Group) async throws -> Answer
    ) {
        let enter = group.enter
        add(
            method.descriptor, in: group.access,
            MethodHandler(params: Params.self) { members, context in
                let entered = try enter(context)
                return MethodHandler<Context>.written(
                    try await handler(try MethodHandler<Context>.decode(Params.self, from: members), entered))
            })
    }

    /// Registers `method` in `group`, answered by `handler`, whose result is encoded with `JSONEncoder`.
    @inlinable
    public mutating func register<Params, Result, Group, Answer: Encodable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, in group: RouteGroup<Context, Group>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Params, Group) async throws -> Answer
    ) {
        let enter = group.enter
        add(
            method.descriptor, in: group.access,
            MethodHandler(params: Params.self) { members, context in
                let entered = try enter(context)
                return try ResultEncoder.encode(
                    try await handler(try MethodHandler<Context>.decode(Params.self, from: members), entered))
            })
    }

    /// Registers `method` in `group`, answered by `handler`, whose result writes its own JSON though it is
    /// `Encodable` too.
    @inlinable
    public mutating func register<Params, Result, Group, Answer: Encodable & JSONWritable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, in group: RouteGroup<Context, Group>,
        _ handler: nonisolated(nonsending) @escaping @Sendable (Params, Group) async throws -> Answer
    ) {
        let enter = group.enter
        add(
            method.descriptor, in: group.access,
            MethodHandler(params: Params.self) { members, context in
                let entered = try enter(context)
                return MethodHandler<Context>.written(
                    try await handler(try MethodHandler<Context>.decode(Params.self, from: members), entered))
            })
    }
}
