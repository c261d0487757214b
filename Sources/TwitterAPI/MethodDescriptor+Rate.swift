import JSONRPC
import TwitterCore

extension MethodDescriptor {
    /// A write method's descriptor: a logged-in caller's call of it takes one from the caller's `rate` bucket
    /// before it runs, so it may answer `rate_limited` (-32006 with `data.retryAfter`), which its errors then say.
    /// `sharesCommits`: see `MethodDescriptor.sharesCommits`.
    init(
        _ name: String, summary: String, params: [Property] = [], result: Schema, positional: Bool = false,
        errors: [String] = [], rate: RateLimitedAction, sharesCommits: Bool = false
    ) {
        self.init(
            name, summary: summary, params: params, result: result, access: .authenticated, positional: positional,
            errors: errors.contains("rate_limited") ? errors : errors + ["rate_limited"], rate: rate.rawValue,
            sharesCommits: sharesCommits)
    }
}
