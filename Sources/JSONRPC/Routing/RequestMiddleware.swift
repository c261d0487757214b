/// One step of the dispatch that every call goes through, in the order the processor lists them, before its
/// params are checked and its handler runs, or after, on its encoded answer: catching up, the access rule, a
/// write's rate, the answer budget. Cross-cutting rules live here, once, never inside a handler.
///
/// A step that needs nothing to wait for is synchronous and costs a call, so a ping is still answered before the
/// connection's task first waits; one that must wait (a catch-up) says so by returning a `Preparation`, which the
/// processor runs around the rest of the call.
public protocol RequestMiddleware<Context>: Sendable {
    /// The caller's context, as the transport gives it.
    associatedtype Context: Sendable

    /// Checks a call before its params are: throws the error to answer with, returns nil to go on at once, or a
    /// preparation that runs the rest of the call (the steps after this one, the params, the handler) itself.
    func prepare(_ descriptor: MethodDescriptor, _ context: Context) throws -> Preparation?

    /// Checks a call's encoded answer before it is sent; throws the error to answer with instead.
    func check(answer: [UInt8], limits: ProtocolLimits) throws

    /// Whether `prepare` may do anything for calls of `descriptor`: false promises that it returns nil and throws
    /// nothing for every caller, so the processor leaves the step out of that method's calls. Asked once a route.
    func prepares(_ descriptor: MethodDescriptor) -> Bool

    /// Whether `check` may refuse an answer: false promises it never throws, so the processor leaves it out.
    var checksAnswers: Bool { get }
}

/// Serving the rest of a call, from the step after the one that prepared it to its encoded result.
public typealias Serve = nonisolated(nonsending) @Sendable () async throws -> [UInt8]
/// What a middleware runs around the rest of a call: waits first, then serves it (`serve`), inside whatever the
/// call should see (a task-local).
public typealias Preparation = nonisolated(nonsending) @Sendable (_ serve: Serve) async throws -> [UInt8]

extension RequestMiddleware {
    /// Nothing to check before.
    public func prepare(_ descriptor: MethodDescriptor, _ context: Context) throws -> Preparation? { nil }
    /// Nothing to check after.
    public func check(answer: [UInt8], limits: ProtocolLimits) throws {}
    /// Asked for every method, unless the step says otherwise.
    public func prepares(_ descriptor: MethodDescriptor) -> Bool { true }
    /// Asked for every answer, unless the step says otherwise.
    public var checksAnswers: Bool { true }
}
