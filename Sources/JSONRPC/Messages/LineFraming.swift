/// The line rules of the protocol: one JSON text per line, ended by `\n` or `\r\n`, in UTF-8.
public enum LineFraming {
    /// The default longest line, in bytes, not counting the line ending.
    public static let defaultMaximumLineLength = 1 << 20

    /// Calls `body` with the line's bytes minus a trailing `\r`, the half of a `\r\n` ending that the
    /// newline split leaves behind.
    public static func withPayload<R>(of line: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try line.withUnsafeBytes { bytes in
            if let last = bytes.last, last == UInt8(ascii: "\r") {
                return try body(UnsafeRawBufferPointer(rebasing: bytes.dropLast()))
            }
            return try body(bytes)
        }
    }

    /// True for a line holding only spaces and tabs: such lines are skipped, as a person at a terminal
    /// pressing Enter twice expects.
    public static func isBlank(_ line: [UInt8]) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }
}
