/// A method's handler: a plain async function from its params and its route group's context to its result, made
/// into one that takes checked params and the caller's context and gives the encoded result.
///
/// There is one kind of handler. How it runs fast is the layer's business, not the handler's: a connection runs
/// a read's lines in one task that starts on the spot (`Task.immediate`), so a handler that never suspends (a
/// ping, a page found in a cache) is answered before that task first waits, and a result that keeps its bytes
/// (`JSONWritable.writtenJSON`, a cached page) is handed on as it is. Construction is `@inlinable` so that the
/// closures are specialised for each method's types in the module that registers them; generic, they looked up
/// type metadata at run time on every call.
///
/// The handler, and every async function of the layer between a connection's task and it, is
/// `nonisolated(nonsending)`: it runs on its caller's executor, as a connection's task does anyway (it prefers its
/// event loop's executor). A plain nonisolated `async` function hops to the generic executor as it starts, and
/// each hop reads the task's executor preference under the task's status lock: about 200 instructions, six a ping,
/// 1,200 of its 10,100 (callgrind, bench/analysis.md).
public struct MethodHandler<Context: Sendable>: Sendable {
    /// The handler on checked params and the caller's context: it enters its route group, decodes the params and
    /// runs.
    @usableFromInline let body:
        nonisolated(nonsending) @Sendable (_ params: [String: JSONValue], _ context: Context) async throws -> [UInt8]
    /// The type the params decode to, so a test can hold it against the descriptor's params.
    public let paramsType: any (Decodable & SendableMetatype).Type

    @usableFromInline
    init(
        params: any (Decodable & SendableMetatype).Type,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (_ params: [String: JSONValue], _ context: Context) async throws
            -> [UInt8]
    ) {
        self.body = body
        self.paramsType = params
    }

    /// Runs the handler to its encoded result.
    @inlinable
    public nonisolated(nonsending) func run(_ members: [String: JSONValue], _ context: Context) async throws -> [UInt8]
    {
        try await body(members, context)
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
