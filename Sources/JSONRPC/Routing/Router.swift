/// Maps method names to typed handlers and their descriptors.
///
/// A handler sees only decoded, shape-checked params of its own `Decodable` type; it never touches raw JSON.
public struct Router<Context: Sendable>: Sendable {
    /// A registered method: what it is, and the type-erased call that decodes, runs and encodes.
    public struct Route: Sendable {
        /// The method's descriptor.
        public let descriptor: MethodDescriptor
        /// Runs the method on checked params and returns the encoded result.
        let invoke: @Sendable (_ params: [String: JSONValue], _ context: Context) async throws -> [UInt8]
    }

    private var routes: [String: Route] = [:]

    /// Creates an empty router.
    public init() {}

    /// Every registered method, sorted by name.
    public var descriptors: [MethodDescriptor] {
        routes.values.map(\.descriptor).sorted { $0.name < $1.name }
    }

    /// The route for `method`, if one is registered.
    public func route(for method: String) -> Route? {
        routes[method]
    }

    /// Registers a handler whose params decode to `Params` and whose result encodes from `Result`.
    ///
    /// Registering a name twice is a programming error in the daemon's assembly, caught at start-up.
    public mutating func register<Params: Decodable & SendableMetatype, Result: Encodable & SendableMetatype>(
        _ descriptor: MethodDescriptor,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        precondition(routes[descriptor.name] == nil, "method \(descriptor.name) registered twice")
        routes[descriptor.name] = Route(descriptor: descriptor) { members, context in
            try ResultEncoder.encode(try await handler(try Self.decode(Params.self, from: members), context))
        }
    }

    /// Registers a handler whose result writes its own JSON; chosen over the `Encodable` overload at compile
    /// time, so the hot methods skip `JSONEncoder` without a cast per call.
    public mutating func register<
        Params: Decodable & SendableMetatype, Result: Encodable & JSONWritable & SendableMetatype
    >(
        _ descriptor: MethodDescriptor,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        precondition(routes[descriptor.name] == nil, "method \(descriptor.name) registered twice")
        routes[descriptor.name] = Route(descriptor: descriptor) { members, context in
            var bytes: [UInt8] = []
            try await handler(try Self.decode(Params.self, from: members), context).writeJSON(into: &bytes)
            return bytes
        }
    }

    /// Decodes checked params, turning a decoding failure into -32602 naming the field; methods that take
    /// none skip the decoder altogether.
    private static func decode<Params: Decodable>(_ type: Params.Type, from members: [String: JSONValue]) throws
        -> Params
    {
        if members.isEmpty, let none = NoParams() as? Params { return none }
        do {
            return try JSONValueDecoder().decode(Params.self, from: .object(members))
        } catch let error as DecodingError {
            throw RPCError.invalidParams(fields: DecodingFailure.fields(of: error))
        }
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
