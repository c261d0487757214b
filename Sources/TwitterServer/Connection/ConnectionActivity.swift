import Synchronization

/// What a connection's async loop has finished, shared with its framing handler on the event loop.
///
/// The handler compares this with the lines it framed to know when a draining connection is done.
final class ConnectionActivity: Sendable {
    private let answered = Atomic<Int>(0)

    /// How many frames the async loop has completely handled.
    var framesAnswered: Int { answered.load(ordering: .acquiring) }

    /// Records one more handled frame.
    func frameAnswered() {
        answered.add(1, ordering: .releasing)
    }
}
