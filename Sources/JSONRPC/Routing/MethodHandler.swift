/// A method's handler: a plain function from its params and the caller's context to its result, made into one
/// that takes checked params and gives the encoded result.
///
/// A handler does not say how it runs. `LineAnswerer` (in the server) runs a connection's calls one after the
/// other, in arrival order, and states there the one rule that lets pipelined posts share a commit.
/// Construction is `@inlinable` so that the closures are specialised for each method's types in the module
/// that registers them; generic, they looked up type metadata at run time on every call.
public struct MethodHandler<Context: Sendable>: Sendable {
    /// The handler's body on checked params. A synchronous handler is kept as such, and so is a look in a cache
    /// before an asynchronous one: the speed trick here, so that a ping or a cached page is answered on the
    /// connection's thread with no task, where an asynchronous handler needs a task to run in (`Task.immediate`
    /// costs about 4,000 instructions, measured with callgrind, against a ping's 6,640; with every cached page
    /// run in a task, `bench/ab.sh` fetched 11 % fewer pages a second). `ExecutionTests` holds the paths equal.
    @usableFromInline
    enum Body: Sendable {
        case synchronous(@Sendable (_ params: [String: JSONValue], _ context: Context) throws -> [UInt8])
        case asynchronous(@Sendable (_ params: [String: JSONValue], _ context: Context) async throws -> [UInt8])
        /// An asynchronous handler with a synchronous look in a cache tried first: answered with no task when
        /// the cache has the answer (a page of the public timeline), run as `asynchronous` when it has not.
        case cachedFirst(@Sendable (_ params: [String: JSONValue], _ context: Context) throws -> Cached)
    }

    /// What a look in the cache came to: the answer, or the handler to run on the same decoded params.
    @usableFromInline
    enum Cached: Sendable {
        case answered([UInt8])
        case missed(@Sendable () async throws -> [UInt8])
    }

    @usableFromInline let body: Body
    /// The type the params decode to, so a test can hold it against the descriptor's params.
    public let paramsType: any (Decodable & SendableMetatype).Type

    @usableFromInline
    init(_ body: Body, params: any (Decodable & SendableMetatype).Type) {
        self.body = body
        self.paramsType = params
    }

    /// A handler whose result writes its own JSON.
    @inlinable
    public init<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        self.init(writing: handler)
    }

    /// A handler whose result is encoded with `JSONEncoder`.
    @inlinable
    public init<Params: Decodable & SendableMetatype, Result: Encodable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        self.init(
            .asynchronous { members, context in
                try ResultEncoder.encode(try await handler(try Self.decode(Params.self, from: members), context))
            }, params: Params.self)
    }

    /// A handler whose result writes its own JSON though it is `Encodable` too: chosen over the `Encodable`
    /// overload at compile time, so the hot methods skip `JSONEncoder` without a cast per call.
    @inlinable
    public init<Params: Decodable & SendableMetatype, Result: Encodable & JSONWritable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        self.init(writing: handler)
    }

    /// What both initialisers above make of a handler whose result writes its own JSON. It has a label so that
    /// calling it is not another choice among the unlabelled overloads.
    @inlinable
    init<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        writing handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        self.init(
            .asynchronous { members, context in
                Self.written(try await handler(try Self.decode(Params.self, from: members), context))
            }, params: Params.self)
    }

    /// A synchronous handler whose result writes its own JSON (`system.ping`): answered with no task.
    @inlinable
    public init<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ handler: @escaping @Sendable (Params, Context) throws -> Result
    ) {
        self.init(
            .synchronous { members, context in
                Self.written(try handler(try Self.decode(Params.self, from: members), context))
            }, params: Params.self)
    }

    /// A handler whose result writes its own JSON, with a synchronous look in a cache tried first (the speed
    /// trick of `Body.cachedFirst`): `cached` gives the answer or nil, and `handler` must give the same answer
    /// whether the cache has it or not (it looks there too), so that the two paths agree.
    @inlinable
    public init<Params: Decodable & Sendable, Result: JSONWritable & SendableMetatype>(
        cached: @escaping @Sendable (Params, Context) throws -> Result?,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        self.init(
            .cachedFirst { members, context in
                let params = try Self.decode(Params.self, from: members)
                if let answer = try cached(params, context) { return .answered(Self.written(answer)) }
                return .missed { Self.written(try await handler(params, context)) }
            }, params: Params.self)
    }

    /// Runs the handler to its end, however it is made.
    @inlinable
    public func run(_ members: [String: JSONValue], _ context: Context) async throws -> [UInt8] {
        switch body {
        case .synchronous(let run): return try run(members, context)
        case .asynchronous(let run): return try await run(members, context)
        case .cachedFirst(let look):
            switch try look(members, context) {
            case .answered(let answer): return answer
            case .missed(let run): return try await run()
            }
        }
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
