import Foundation

/// A one-line progress bar on standard error, drawn only when it is a terminal: for `twitterd seed` and
/// `twctl export`, whose standard output may be a file.
public struct ProgressBar: Sendable {
    let label: String
    let total: Int
    private let isTerminal = isatty(STDERR_FILENO) == 1

    /// A bar for `total` steps, named `label`.
    public init(label: String, total: Int) {
        self.label = label
        self.total = total
    }

    /// Draws `done` of `total` (more than `total` shows full).
    public func update(_ done: Int) {
        guard isTerminal, total > 0 else { return }
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)".utf8))
    }

    /// Ends the bar's line.
    public func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
