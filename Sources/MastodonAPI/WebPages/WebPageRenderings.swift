/// The public web pages' answers, kept by the layer's answers they were made from, the origin, the path and the
/// second they were rendered in (`AnswerRenderings`; dates read "now", "5m", so a page is kept one second at most).
typealias WebPageRenderings = AnswerRenderings<MastodonResponse>

extension MastodonResponse: KeptRendering {
    var byteCount: Int {
        body.count + (compression == nil ? 0 : KeptCompression.reservation(for: body.count))
            + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}

extension AnswerRenderings where Rendering == MastodonResponse {
    /// The renderings every page shares: keyed by the whole answers, read as nobody, so they hold nothing private.
    static var shared: WebPageRenderings { sharedWebPageRenderings }
}

private let sharedWebPageRenderings = WebPageRenderings(byteBudget: 4 << 20)
