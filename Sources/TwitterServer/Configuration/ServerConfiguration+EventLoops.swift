import NIOCore

extension ServerConfiguration {
    /// One event loop per core, measured (bench/sweep-loops.sh, C client, 2 cores shared with the client):
    /// one loop served 0.66 of two's pings at 16 × 16 and 0.5–0.7 of their fetch and home pages at 16 × 8;
    /// four served as two did (ping 1.00–1.02M/s against 0.96M/s, fetch and home within 4 %), with the extra
    /// threads for nothing. docs/BENCHMARKS.md has the figures.
    public static let defaultEventLoops = System.coreCount

    /// Sizes NIO's shared event loop group, which the listener, the health reporter and the PostgreSQL store
    /// all run on, to `eventLoops`. Call once, first thing, before anything uses the group: NIO takes the
    /// count only before its first use and traps on a second call.
    public func sizeEventLoopGroup() {
        NIOSingletons.groupLoopCountSuggestion = eventLoops
    }
}
