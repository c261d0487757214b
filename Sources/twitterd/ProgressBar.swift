import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
struct ProgressBar {
    let label: String
    let total: Int
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(label: String, total: Int) {
        self.label = label
        self.total = total
    }

    func update(_ done: Int) {
        guard isTerminal, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)".utf8))
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
