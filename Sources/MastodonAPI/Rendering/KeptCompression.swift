import Synchronization

/// The compressed form of a kept rendering's body, made the first time a client that takes it asks, and then
/// kept with the rendering: the one home of "compress once, send many times" for the HTTP front's gzip answers.
///
/// A home timeline a client polls is the same page until a commit changes it (`AnswerRenderings`), so its
/// Statuses are compressed once however often they are sent. Compressing is the transport's job (zlib lives in
/// HTTPTransport); this only keeps what it made, or that compressing did not pay.
public final class KeptCompression: Sendable {
    /// What is known of the body's compressed form.
    enum State: Sendable, Equatable {
        /// No client that takes it has asked yet.
        case unasked
        /// The compressed bytes.
        case compressed([UInt8])
        /// Compressing saved too little to be worth keeping (more than `reservation(for:)`): sent as it is.
        case incompressible
    }

    private let state = Mutex(State.unasked)

    /// Nothing known yet.
    public init() {}

    /// The compressed form of `body` (the rendering's own, always the same bytes): the kept one, or `compress`'s,
    /// kept when it is at most `reservation(for:)` of the body. Nil when it is not worth sending compressed.
    public func compressed(_ body: [UInt8], by compress: ([UInt8]) -> [UInt8]?) -> [UInt8]? {
        switch state.withLock({ $0 }) {
        case .compressed(let bytes): return bytes
        case .incompressible: return nil
        case .unasked: break
        }
        // Two clients asking at once may both compress: the same bytes, kept once.
        let made = compress(body).flatMap { $0.count <= Self.reservation(for: body.count) ? $0 : nil }
        state.withLock { $0 = made.map { .compressed($0) } ?? .incompressible }
        return made
    }

    /// What the compressed form of a body of `byteCount` bytes may weigh, counted in its rendering's weight from
    /// the start so that `AnswerRenderings`' budget holds whether or not a client ever asks: half the body. JSON
    /// and HTML of Statuses compress to a tenth or less (27,137 bytes of home to 1,557 with gzip -1).
    public static func reservation(for byteCount: Int) -> Int { byteCount / 2 }

    /// What is known now: for the tests.
    var known: State { state.withLock { $0 } }
}
