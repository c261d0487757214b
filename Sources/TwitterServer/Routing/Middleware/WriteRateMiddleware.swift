import JSONRPC
import TwitterCore

/// The one place a write's rate is taken (the `[rates]` key its declaration names, `MethodDescriptor.rate`),
/// after the access rule and before its params are checked and its handler runs, whatever it answers: a storm of
/// refused writes is bounded too, and no handler can forget its rate.
struct WriteRateMiddleware: RequestMiddleware {
    let rates: WriteRateLimiter

    /// Only a method that declares a rate takes from one.
    func prepares(_ descriptor: MethodDescriptor) -> Bool { descriptor.rate != nil }
    var checksAnswers: Bool { false }

    func prepare(_ descriptor: MethodDescriptor, _ context: RequestContext) throws -> Preparation? {
        // A rated method is a logged-in one (`DaemonAssembly` checks it at start), let in by the access rule.
        guard let rate = descriptor.rate, let login = context.session.login else { return nil }
        do throws(TwitterError) {
            try rates.take(named: rate, by: login.userID)
        } catch {
            throw error.rpcError
        }
        return nil
    }
}
