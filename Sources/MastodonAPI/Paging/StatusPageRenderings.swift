/// A timeline page's Statuses (a JSON array) and the ids its links page from, kept by the layer's answer.
struct StatusPageRendering: KeptRendering {
    let body: [UInt8]
    let newestID: Int64?
    let oldestID: Int64?
    /// The body's compressed form, once a client that takes gzip asked for it.
    let compression = KeptCompression()

    var byteCount: Int { body.count + KeptCompression.reservation(for: body.count) }
}

/// The timelines' renderings, kept by their answer and origin (`AnswerRenderings`).
typealias StatusPageRenderings = AnswerRenderings<StatusPageRendering>

extension AnswerRenderings where Rendering == StatusPageRendering {
    /// The renderings every endpoint shares: keyed by the whole answer, so accounts cannot see one another's.
    static var shared: StatusPageRenderings { sharedStatusPageRenderings }
}

private let sharedStatusPageRenderings = StatusPageRenderings()
