extension Substring {
    /// Without the spaces and tabs around it, as header values and their list members are written (RFC 9110's
    /// optional whitespace). By hand, since Foundation's `trimmingCharacters` was 5 % of a cached home timeline's
    /// time (perf), and by bytes, whose indices are the string's too: a blank is one byte, so the ends fall between
    /// characters.
    var trimmingBlanks: Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, Self.isBlank(bytes[start]) { start = bytes.index(after: start) }
        while start < end, Self.isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return self[start..<end]
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
