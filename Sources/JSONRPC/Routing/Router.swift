/// Maps method names to typed handlers and their descriptors.
///
/// A handler sees only decoded, shape-checked params of its own `Decodable` type; it never touches raw JSON.
///
/// Registration is `@inlinable` so that the closures it builds are specialised for each method's types in
/// the module that registers them; generic, they looked up type metadata at run time on every call.
public struct Router<Context: Sendable>: Sendable {
    /// A registered method: what it is, and the type-erased calls that decode, run and encode.
    ///
    /// A class, so that looking a route up for every request copies one reference, not three closures.
    public final class Route: Sendable {
        /// The method's descriptor.
        public let descriptor: MethodDescriptor
        /// Runs the method on checked params and returns the encoded result.
        let invoke: @Sendable (_ params: [String: JSONValue], _ context: Context) async throws -> [UInt8]
        /// Answers without suspending when the method can, on the caller's thread; nil means the call must go
        /// through `invoke`. It has no effect when it returns nil, so the call can be made again there.
        let invokeNow: (@Sendable (_ params: [String: JSONValue], _ context: Context) throws -> [UInt8]?)?
        /// Starts the method at once and returns the wait for its result, for methods whose calls pipelined on
        /// one connection may overlap their waits; nil for the others.
        let start: (@Sendable (_ params: [String: JSONValue], _ context: Context) throws -> Wait)?

        @usableFromInline
        init(
            descriptor: MethodDescriptor,
            invoke: @escaping @Sendable ([String: JSONValue], Context) async throws -> [UInt8],
            invokeNow: (@Sendable ([String: JSONValue], Context) throws -> [UInt8]?)?,
            start: (@Sendable ([String: JSONValue], Context) throws -> Wait)?
        ) {
            self.descriptor = descriptor
            self.invoke = invoke
            self.invokeNow = invokeNow
            self.start = start
        }
    }

    /// What remains of a started call: waiting for its encoded result.
    public typealias Wait = @Sendable () async throws -> [UInt8]

    /// The routes by the length of their name: a request's method is found by comparing it with the one or
    /// two names of its length, which costs less than hashing it.
    @usableFromInline var routesByNameLength: [[Route]] = []

    /// Creates an empty router.
    public init() {}

    /// Every registered method, sorted by name.
    public var descriptors: [MethodDescriptor] {
        routesByNameLength.joined().map(\.descriptor).sorted { $0.name < $1.name }
    }

    /// The route for `method`, if one is registered.
    public func route(for method: String) -> Route? {
        let length = method.utf8.count
        guard length < routesByNameLength.count else { return nil }
        return routesByNameLength[length].first { $0.descriptor.name == method }
    }

    /// Registers a handler whose params decode to `Params` and whose result encodes from `Result`.
    ///
    /// Registering a name twice is a programming error in the daemon's assembly, caught at start-up.
    @inlinable
    public mutating func register<Params: Decodable & SendableMetatype, Result: Encodable & SendableMetatype>(
        _ descriptor: MethodDescriptor,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        add(descriptor, encode: ResultEncoder.encode) { members, context in
            try await handler(try Self.decode(Params.self, from: members), context)
        }
    }

    /// Registers a handler whose result writes its own JSON; chosen over the `Encodable` overload at compile
    /// time, so the hot methods skip `JSONEncoder` without a cast per call.
    @inlinable
    public mutating func register<
        Params: Decodable & SendableMetatype, Result: Encodable & JSONWritable & SendableMetatype
    >(
        _ descriptor: MethodDescriptor,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        add(descriptor, encode: Self.written) { members, context in
            try await handler(try Self.decode(Params.self, from: members), context)
        }
    }

    /// Registers a handler that never waits: it is answered on the connection's thread, with no task at all.
    @inlinable
    public mutating func register<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ descriptor: MethodDescriptor,
        answeringNow handler: @escaping @Sendable (Params, Context) throws -> Result
    ) {
        register(descriptor, answeringNow: handler, otherwise: handler)
    }

    /// Registers a handler that answers at once when it can (`now` returns a result) and waits otherwise,
    /// such as a read served from memory when it is cached. `now` must have no effect when it returns nil.
    @inlinable
    public mutating func register<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ descriptor: MethodDescriptor,
        answeringNow now: @escaping @Sendable (Params, Context) throws -> Result?,
        otherwise handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        let invokeNow: @Sendable ([String: JSONValue], Context) throws -> [UInt8]? = { members, context in
            try now(try Self.decode(Params.self, from: members), context).map(Self.written)
        }
        add(descriptor, encode: Self.written, now: invokeNow) { members, context in
            try await handler(try Self.decode(Params.self, from: members), context)
        }
    }

    /// Registers a handler in two parts: the first runs at once, in arrival order, and returns the wait for the
    /// result. Consecutive calls pipelined on one connection then overlap their waits while taking effect in
    /// order, which is how one client's pipelined posts share a group commit.
    @inlinable
    public mutating func register<Params: Decodable & SendableMetatype, Result: JSONWritable & SendableMetatype>(
        _ descriptor: MethodDescriptor,
        starting start: @escaping @Sendable (Params, Context) throws -> @Sendable () async throws -> Result
    ) {
        let starting: @Sendable ([String: JSONValue], Context) throws -> Wait = { members, context in
            let wait = try start(try Self.decode(Params.self, from: members), context)
            return { Self.written(try await wait()) }
        }
        add(descriptor, encode: { $0 }, start: starting) { members, context in
            try await starting(members, context)()
        }
    }

    @usableFromInline
    mutating func add<Result>(
        _ descriptor: MethodDescriptor, encode: @escaping @Sendable (Result) throws -> [UInt8],
        now invokeNow: (@Sendable ([String: JSONValue], Context) throws -> [UInt8]?)? = nil,
        start: (@Sendable ([String: JSONValue], Context) throws -> Wait)? = nil,
        _ run: @escaping @Sendable ([String: JSONValue], Context) async throws -> Result
    ) {
        precondition(route(for: descriptor.name) == nil, "method \(descriptor.name) registered twice")
        let route = Route(
            descriptor: descriptor, invoke: { members, context in try encode(try await run(members, context)) },
            invokeNow: invokeNow, start: start)
        let length = descriptor.name.utf8.count
        if routesByNameLength.count <= length {
            routesByNameLength.append(contentsOf: Array(repeating: [], count: length + 1 - routesByNameLength.count))
        }
        routesByNameLength[length].append(route)
    }

    @inlinable
    static func written(_ result: some JSONWritable) -> [UInt8] {
        var bytes: [UInt8] = []
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

extension Router.Route {
    /// Turns params given by name or by position into a checked by-name object, or throws -32602.
    func checkedParams(_ params: JSONValue?) throws(RPCError) -> [String: JSONValue] {
        let members: [String: JSONValue]
        switch params {
        case nil:
            members = [:]
        case .object(let object)?:
            members = object
        case .array(let elements)?:
            members = try byName(elements)
        default:
            throw RPCError.invalidParams(fields: [:], detail: "params must be an object or an array")
        }
        let failures = ShapeChecker.check(params: members, against: descriptor.params)
        guard failures.isEmpty else { throw RPCError.invalidParams(fields: failures) }
        return members
    }

    private func byName(_ elements: [JSONValue]) throws(RPCError) -> [String: JSONValue] {
        if elements.isEmpty { return [:] }
        guard descriptor.acceptsPositionalParams else {
            throw RPCError.invalidParams(fields: [:], detail: "\(descriptor.name) takes params by name, as an object")
        }
        guard elements.count <= descriptor.params.count else {
            throw RPCError.invalidParams(
                fields: [:], detail: "\(descriptor.name) takes at most \(descriptor.params.count) positional params"
            )
        }
        var members: [String: JSONValue] = [:]
        for (property, element) in zip(descriptor.params, elements) {
            members[property.name] = element
        }
        return members
    }
}
