/// Maps method names to their descriptors and handlers.
///
/// A handler sees only decoded, shape-checked params of its own `Decodable` type; it never touches raw JSON.
/// A handler is a plain async function of its params and its route group's context (`RouteGroup`), registered
/// one way (`register(_:in:_:)`); how a connection's calls run, in order, is stated once, where lines are
/// dispatched (`LineAnswerer` in the JSON-RPC transport).
public struct Router<Context: Sendable>: Sendable {
    /// A registered method: what it is, and its handler.
    ///
    /// A class, so that looking a route up for every request copies one reference, not a descriptor.
    public final class Route: RegisteredMethod, @unchecked Sendable {
        /// The handler.
        public let handler: MethodHandler<Context>

        init(descriptor: MethodDescriptor, number: Int, handler: MethodHandler<Context>) {
            self.handler = handler
            super.init(descriptor: descriptor, number: number)
        }
    }

    /// The routes by the length of their name: a request's method is found by comparing it with the one or
    /// two names of its length, which costs less than hashing it. Held as `RegisteredMethod`, a class that is
    /// not generic: indexing arrays of `Route` from this generic type asked the runtime for the metadata of
    /// `Route` and of `[Route]` on every request, about 650 instructions of a ping's 8,400 (callgrind).
    private var routesByNameLength: [[RegisteredMethod]] = []

    /// Creates an empty router.
    public init() {}

    /// Every route, in no particular order.
    var routes: [Route] {
        // Every entry was registered as a `Route` of this router (`register`).
        routesByNameLength.joined().map { unsafeDowncast($0, to: Route.self) }
    }

    /// How many routes there are: their numbers run from 0 to one less.
    var routeCount: Int { routesByNameLength.reduce(0) { $0 + $1.count } }

    /// Every registered method, sorted by name.
    public var descriptors: [MethodDescriptor] {
        routesByNameLength.joined().map(\.descriptor).sorted { $0.name < $1.name }
    }

    /// The route for `method`, if one is registered.
    public func route(for method: String) -> Route? {
        let length = method.utf8.count
        guard length < routesByNameLength.count else { return nil }
        // An index loop, not `first(where:)`: from this generic type that instantiated the closure's and the
        // sequence's generic metadata at run time on every request (perf: 0.6 % of the daemon under posts).
        let routes = routesByNameLength[length]
        var index = 0
        while index < routes.count {
            // Every entry was registered as a `Route` of this router (`register`).
            if routes[index].descriptor.name == method { return unsafeDowncast(routes[index], to: Route.self) }
            index += 1
        }
        return nil
    }

    /// Adds the route of `descriptor`, registered (`register(_:in:_:)`) in a group of `access`.
    ///
    /// Registering a name twice, or in a group of another access than the method declares, is a programming
    /// error in the daemon's assembly, caught at start-up.
    @usableFromInline
    mutating func add(
        _ descriptor: MethodDescriptor, in access: MethodDescriptor.Access, _ handler: MethodHandler<Context>
    ) {
        precondition(route(for: descriptor.name) == nil, "method \(descriptor.name) registered twice")
        precondition(
            descriptor.access == access,
            "\(descriptor.name) is declared \(descriptor.access.name) but registered in a group of \(access.name)")
        let length = descriptor.name.utf8.count
        if routesByNameLength.count <= length {
            routesByNameLength.append(contentsOf: Array(repeating: [], count: length + 1 - routesByNameLength.count))
        }
        routesByNameLength[length].append(Route(descriptor: descriptor, number: routeCount, handler: handler))
    }
}

extension Router.Route {
    /// Turns params given by name or by position into a checked by-name object, or throws -32602.
    func checkedParams(_ params: JSONValue?) throws(RPCError) -> [String: JSONValue] {
        let members: [String: JSONValue]
        switch params {
        case nil:
            // No params for a method that takes none (a ping): nothing to check, and the check's empty list of
            // failures cost 270 instructions (callgrind).
            if descriptor.params.isEmpty { return [:] }
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

/// What every route has whatever its context: its descriptor. Not generic, so that the router's lookup needs no
/// generic metadata at run time.
public class RegisteredMethod: @unchecked Sendable {
    /// The method's descriptor.
    public let descriptor: MethodDescriptor
    /// Its place in the order of registration: where a processor keeps what it decided once for the route.
    let number: Int

    init(descriptor: MethodDescriptor, number: Int) {
        self.descriptor = descriptor
        self.number = number
    }
}
