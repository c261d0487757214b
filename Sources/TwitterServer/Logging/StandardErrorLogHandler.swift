import Foundation
import JSONRPC
import Logging
import Synchronization

/// Logs one line per event to stderr; under systemd (JOURNAL_STREAM set) each line starts with its syslog
/// priority as `<N>`, which journald turns into the entry's priority.
public struct StandardErrorLogHandler: LogHandler {
    /// The level shared by every handler of the process, so SIGHUP can change it at run time.
    public static let sharedLevel = Mutex<Logger.Level>(.info)

    private let label: String
    private let usesJournalPrefix: Bool
    /// Metadata attached to every line from this logger.
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler; `journal` picks the `<N>` prefixes instead of a timestamp.
    public init(label: String, journal: Bool) {
        self.label = label
        self.usesJournalPrefix = journal
    }

    /// The process-wide level; setting it changes every logger at once.
    public var logLevel: Logger.Level {
        get { Self.sharedLevel.withLock { $0 } }
        set { Self.sharedLevel.withLock { $0 = newValue } }
    }

    /// Reads or sets one metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one event as one line.
    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line =
            usesJournalPrefix
            ? "<\(Self.syslogPriority(event.level))>"
            : "\(Timestamp.string(from: Date())) \(event.level.rawValue.uppercased()) "
        line += "\(label): \(Self.singleLine(event.message.description))"
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Self.singleLine(value.description))"
        }
        line += "\n"
        // One write(2) per line keeps lines whole when several threads log at once.
        line.utf8CString.withUnsafeBufferPointer { buffer in
            _ = Foundation.write(STDERR_FILENO, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// The syslog priority journald expects for a swift-log level.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Log lines must stay one line each, whatever a message holds.
    private static func singleLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? text.replacing("\n", with: "\\n").replacing("\r", with: "\\r") : text
    }
}
