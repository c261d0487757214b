import Synchronization

/// What a connection's handler has finished, shared with its framing handler.
///
/// The handler compares this with the lines it framed to know when a draining connection is done.
final class ConnectionActivity: Sendable {
    private let answered = Atomic<Int>(0)

    /// How many frames the connection handler has completely handled.
    var framesAnswered: Int { answered.load(ordering: .acquiring) }

    /// Records one more handled frame.
    func frameAnswered() {
        answered.add(1, ordering: .releasing)
    }
}
