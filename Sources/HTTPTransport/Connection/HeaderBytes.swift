/// Reading header values by their bytes, the one home of it: headers are ASCII, and `Character`-level `split`,
/// `hasPrefix`, `count` and `lowercased()` make a string per character (35,000 instructions of a kept home page
/// of 234,000, callgrind at ba99f53).
extension BidirectionalCollection where Element == UInt8, SubSequence == Self {
    /// Without the spaces and tabs around them, as header values and their list members are written (RFC 9110's
    /// optional whitespace). By hand: Foundation's `trimmingCharacters` was 5 % of a cached home timeline's time
    /// (perf).
    var trimmingBlanks: Self {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var start = startIndex
        var end = endIndex
        while start < end, blank(self[start]) { start = index(after: start) }
        while start < end, blank(self[index(before: end)]) { end = index(before: end) }
        return self[start..<end]
    }
}

extension Sequence where Element == UInt8 {
    /// Whether these bytes are `name`, written in lower case, in any case of its ASCII letters.
    func equalsIgnoringASCIICase(_ name: String) -> Bool {
        elementsEqual(name.utf8) { byte, lower in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == lower
        }
    }
}

extension Substring {
    /// Without the spaces and tabs around it; by its bytes, whose indices are the string's too: a blank is one
    /// byte, so the ends fall between characters.
    var trimmingBlanks: Substring {
        let bytes = utf8.trimmingBlanks
        return self[bytes.startIndex..<bytes.endIndex]
    }
}
