extension String {
    /// The text as an error message shows it: clients control what errors quote, so past `limit` UTF-8 bytes only
    /// its first `limit` characters are shown, and "…".
    func shortenedForError(to limit: Int) -> String {
        guard utf8.count > limit else { return self }
        return String(prefix(limit)) + "…"
    }

    /// The text shortened as `shortenedForError(to:)` does, written as a JSON string literal, so that quotes and
    /// control characters in it cannot garble the message.
    func quotedForError(shortenedTo limit: Int) -> String {
        var bytes: [UInt8] = []
        JSONValue.writeString(shortenedForError(to: limit), into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
