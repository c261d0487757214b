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
    /// Registers `method`, run by `handler`; the handler must decode the method's own params type.
    ///
    /// A handler for another params type is a programming error in the daemon's assembly, caught at start-up
    /// like a name registered twice.
    public mutating func register<Params, Result>(
        _ method: RPCMethod<Params, Result>, _ handler: MethodHandler<Context>
    ) {
        precondition(
            handler.paramsType == Params.self,
            "\(method.name) is declared with \(Params.self) but its handler decodes \(handler.paramsType)")
        register(method.descriptor, handler)
    }

    /// Registers `method`, answered by `handler`, whose result writes its own JSON.
    @inlinable
    public mutating func register<Params, Result, Answer: JSONWritable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, _ handler: @escaping @Sendable (Params, Context) async throws -> Answer
    ) {
        register(method.descriptor, MethodHandler(handler))
    }

    /// Registers `method`, answered by `handler`, whose result is encoded with `JSONEncoder`.
    @inlinable
    public mutating func register<Params, Result, Answer: Encodable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, _ handler: @escaping @Sendable (Params, Context) async throws -> Answer
    ) {
        register(method.descriptor, MethodHandler(handler))
    }

    /// Registers `method`, answered by `handler`, whose result writes its own JSON though it is `Encodable` too.
    @inlinable
    public mutating func register<Params, Result, Answer: Encodable & JSONWritable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, _ handler: @escaping @Sendable (Params, Context) async throws -> Answer
    ) {
        register(method.descriptor, MethodHandler(handler))
    }

    /// Registers `method`, answered by `handler` after a synchronous look in a cache, `cached`, which answers with
    /// no task when it can (`MethodHandler.Body.cachedFirst`); `handler` gives the same answer either way.
    @inlinable
    public mutating func register<Params, Result, Answer: JSONWritable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, cached: @escaping @Sendable (Params, Context) throws -> Answer?,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Answer
    ) {
        register(method.descriptor, MethodHandler(cached: cached, handler))
    }

    /// Registers `method`, answered by a synchronous `handler` with no task (`MethodHandler.Body`).
    @inlinable
    public mutating func register<Params, Result, Answer: JSONWritable & SendableMetatype>(
        _ method: RPCMethod<Params, Result>, _ handler: @escaping @Sendable (Params, Context) throws -> Answer
    ) {
        register(method.descriptor, MethodHandler(handler))
    }
}
