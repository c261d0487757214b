/// Keeps each call's answer within `limits.maximumAnswerBytes`: a result larger than that is answered with an
/// error instead, so one line's answer is never larger than the budget allows (a batch's line is bounded by the
/// processor, which stops running members once their answers reach it).
public struct AnswerBudget<Context: Sendable>: RequestMiddleware {
    /// The budget, read from each line's limits.
    public init() {}

    /// Nothing to check before a call.
    public func prepares(_ descriptor: MethodDescriptor) -> Bool { false }

    /// Refuses an answer larger than the budget.
    public func check(answer: [UInt8], limits: ProtocolLimits) throws {
        let budget = limits.maximumAnswerBytes
        guard answer.count > budget else { return }
        throw RPCError.invalidRequest(
            "the answer is larger than \(budget) bytes, the most one line is answered with; ask for less",
            ["limit": .number(JSONNumber(budget))])
    }
}
