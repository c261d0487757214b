extension [UInt8] {
    /// Appends a literal's bytes in one copy. Appending a string's `utf8` view takes the generic sequence path,
    /// which showed up in the profile of every answer.
    mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes in one copy.
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
