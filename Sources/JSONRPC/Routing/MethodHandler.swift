/// A method's handler together with how it runs: the one description of a route's execution.
///
/// - `immediate`: answered on the connection's thread without a task, such as `system.ping`; it may hand back
///   work to await instead when it cannot answer at once, such as a read that is not cached.
/// - `ordered`: takes effect at once, in arrival order, and only its result is awaited, so that calls
///   pipelined on one connection overlap their waits, such as posts sharing a group commit.
/// - `awaited`: runs in a task and is awaited.
///
/// A call behind ordered calls that are still awaited runs only once they are done, whatever its execution,
/// so it never misses their effect. Construction is `@inlinable` so that the closures are specialised for
/// each method's types in the module that registers them; generic, they looked up type metadata at run time
/// on every call.
public struct MethodHandler<Context: Sendable>: Sendable {
    /// What remains of a started call: waiting for its encoded result.
    public typealias Wait = @Sendable () async throws -> [UInt8]

    @usableFromInline
    enum Execution: Sendable {
        case immediate(@Sendable (_ params: [String: JSONValue], _ context: Context) throws -> Immediate<[UInt8]>)
        case ordered(@Sendable (_ params: [String: JSONValue], _ context: Context) throws -> Wait)
        case awaited(@Sendable (_ params: [String: JSONValue], _ context: Context) async throws -> [UInt8])
    }

    @usableFromInline let execution: Execution
    /// The type the params decode to, so a test can hold it against the descriptor's params.
    public let paramsType: any (Decodable & SendableMetatype).Type

    @usableFromInline
    init(_ execution: Execution, params: any (Decodable & SendableMetatype).Type) {
        self.execution = execution
        self.paramsType = params
    }

    /// Answered at once on the connection's thread; `.later` hands back the work to await when it cannot be.
    /// The handler must have no effect when it answers `.later`.
    @inlinable
    public static func immediate<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) throws -> Immediate<Result>
    ) -> MethodHandler {
        MethodHandler(
            .immediate { members, context in
                switch try handler(try decode(Params.self, from: members), context) {
                case .now(let result): return .now(written(result))
                case .later(let wait): return .later { written(try await wait()) }
                }
            }, params: Params.self)
    }

    /// Takes effect at once, in arrival order, and returns the wait for its result.
    @inlinable
    public static func ordered<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ start: @escaping @Sendable (Params, Context) throws -> @Sendable () async throws -> Result
    ) -> MethodHandler {
        MethodHandler(
            .ordered { members, context in
                let wait = try start(try decode(Params.self, from: members), context)
                return { written(try await wait()) }
            }, params: Params.self)
    }

    /// Awaited in a task; the result is encoded with `JSONEncoder`.
    @inlinable
    public static func awaited<Params: Decodable & SendableMetatype, Result: Encodable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) -> MethodHandler {
        MethodHandler(
            .awaited { members, context in
                try ResultEncoder.encode(try await handler(try decode(Params.self, from: members), context))
            }, params: Params.self)
    }

    /// Awaited in a task; the result writes its own JSON. Chosen over the `Encodable` overload at compile time,
    /// so the hot methods skip `JSONEncoder` without a cast per call.
    @inlinable
    public static func awaited<
        Params: Decodable & SendableMetatype, Result: Encodable & JSONWritable & SendableMetatype
    >(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) -> MethodHandler {
        awaitedWriting(handler)
    }

    /// Awaited in a task; the result writes its own JSON and has no `Encodable` form (a page of cached bytes).
    @inlinable
    public static func awaited<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) -> MethodHandler {
        awaitedWriting(handler)
    }

    /// The one body of both overloads whose result writes its own JSON.
    @inlinable
    static func awaitedWriting<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) -> MethodHandler {
        MethodHandler(
            .awaited { members, context in
                written(try await handler(try decode(Params.self, from: members), context))
            }, params: Params.self)
    }

    @inlinable
    static func written(_ result: some JSONWritable) -> [UInt8] {
        // A kept page's bytes are shared, not copied: a copy of a 14 KB page is thousands of instructions.
        if let bytes = result.writtenJSON { return bytes }
        // A tweet's answer is about 300 bytes: grown from empty it was reallocated and copied five times.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        result.writeJSON(into: &bytes)
        return bytes
    }

    /// Decodes checked params, turning a decoding failure into -32602 naming the field; methods that take
    /// none skip the decoder altogether.
    @inlinable
    static func decode<Params: Decodable>(_ type: Params.Type, from members: [String: JSONValue]) throws
        -> Params
    {
        if members.isEmpty, let none = NoParams() as? Params { return none }
        do {
            return try JSONValueDecoder().decode(Params.self, from: .object(members))
        } catch let error as DecodingError {
            throw invalidParams(error)
        }
    }

    @usableFromInline
    static func invalidParams(_ error: DecodingError) -> RPCError {
        RPCError.invalidParams(fields: DecodingFailure.fields(of: error))
    }
}

/// What an immediate handler gives: the answer now, or the work to await for it.
public enum Immediate<Result: Sendable>: Sendable {
    /// Answered without waiting.
    case now(Result)
    /// Cannot be answered without waiting; the connection awaits this in a task.
    case later(@Sendable () async throws -> Result)
}
