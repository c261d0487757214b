/// Routes that share an access rule and the context their handlers get: Hummingbird's route group with its own
/// context type, so that a handler of the logged-in group is handed the login and cannot forget to look for it.
///
/// The access rule itself is checked before the params, by the processor's middleware (`RequestMiddleware`),
/// for every route alike; `enter` only turns the caller's context, already let in, into the group's.
/// Registering a method in a group whose access is not the method's declared one is a programming error of the
/// assembly, caught at start-up (`Router.register(_:in:_:)`).
public struct RouteGroup<Context: Sendable, GroupContext: Sendable>: Sendable {
    /// The access every method of the group declares.
    public let access: MethodDescriptor.Access
    /// The group's context for a caller the access rule let in.
    public let enter: @Sendable (Context) throws -> GroupContext

    /// A group of methods declared with `access`, whose handlers get `enter`'s context.
    public init(access: MethodDescriptor.Access, enter: @escaping @Sendable (Context) throws -> GroupContext) {
        self.access = access
        self.enter = enter
    }
}

extension RouteGroup where GroupContext == Context {
    /// A group whose handlers get the caller's context as it is.
    public static func plain(_ access: MethodDescriptor.Access) -> Self {
        Self(access: access) { $0 }
    }
}
