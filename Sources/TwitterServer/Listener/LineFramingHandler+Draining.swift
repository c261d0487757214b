import NIOCore

/// Sent down a connection's pipeline when the daemon begins a graceful shutdown.
struct DrainEvent: Sendable {}

extension LineFramingHandler {
    /// How long a draining connection must stay quiet, with every line answered, before it is closed.
    static let drainQuietPeriod = TimeAmount.milliseconds(100)

    /// Starts watching for the moment this connection has nothing left to answer.
    ///
    /// A request that reached the daemon before SIGTERM is answered: the connection ends only when every
    /// framed line has been answered, no partial line is pending, and no byte arrived for a quiet period.
    func beginDraining(context: ChannelHandlerContext) {
        guard !isDrainingNow else { return }
        markDraining()
        checkDrained(context: context)
    }

    private func checkDrained(context: ChannelHandlerContext) {
        if isQuiet {
            fireDrained(context: context)
            return
        }
        resetQuietWindow()
        context.eventLoop.scheduleTask(in: Self.drainQuietPeriod) { [context] in
            self.checkDrained(context: context)
        }
    }
}
