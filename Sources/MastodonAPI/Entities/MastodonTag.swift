import JSONRPC

/// Mastodon's Tag entity (https://docs.joinmastodon.org/entities/Tag/): a hashtag by name, with no usage history
/// (`history` is empty) and never followed (there are no followed tags here).
enum MastodonTag {
    /// Appends the Tag `name` (without `#`); its URL starts with `origin`.
    static func write(_ name: String, origin: String, into bytes: inout [UInt8]) {
        let name = name.lowercased()
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.string("id", name, into: &bytes)
            object.string("name", name, into: &bytes)
            object.url("url", origin, "/tags/", name, into: &bytes)
            object.emptyArray("history", into: &bytes)
            object.boolean("following", false, into: &bytes)
        }
    }
}
