import JSONRPC
import TwitterCore

/// Tweets are the bulk of every feed answer, so they write their own JSON, keys sorted like every answer:
/// `{"author":{"id","username"},"bookmarkedByMe","createdAt","entities":{…},"id","inReplyToId","likedByMe",
/// "likesCount","quoted","quotesCount","repliesCount","repostOf","repostedByMe","repostsCount","text"}`.
///
/// The reader's marks (`bookmarkedByMe`, `likedByMe`, `repostedByMe`), the quoted tweet (which a block or a mute
/// makes unavailable to one reader and not another) and a repost's original fall between the members that are
/// the same for every reader, so those are written as five parts that `TweetJSONCache` keeps, and an answer is
/// the parts with the marks, the quoted tweet and the original written between them: a cached part never holds
/// anything of one reader's.
extension Tweet: JSONWritable {
    /// The members that are the same for every reader, in four runs around the marks and the original.
    struct JSONParts: Sendable {
        /// From `{` up to `"bookmarkedByMe":`.
        let head: [UInt8]
        /// From `,"createdAt":` up to `"likedByMe":`.
        let body: [UInt8]
        /// From `,"likesCount":` up to `"quoted":`.
        let middle: [UInt8]
        /// From `,"quotesCount":` up to `"repostOf":`.
        let counts: [UInt8]
        /// From `,"repostsCount":` to the closing `}`.
        let tail: [UInt8]
    }

    /// The whole tweet, the original of a repost and the marks included, in one pass: a single answer (a
    /// post, a get) has no cache to share parts with, and building the parts cost a post 4 % of its time.
    public func writeJSON(into bytes: inout [UInt8]) {
        JSONObjectWriter.write(into: &bytes) { tweet, bytes in
            tweet.key("author", into: &bytes)
            JSONObjectWriter.write(into: &bytes) { author, bytes in
                author.integer("id", self.author.id, into: &bytes)
                author.string("username", self.author.username, into: &bytes)
            }
            tweet.boolean("bookmarkedByMe", bookmarkedByMe, into: &bytes)
            tweet.timestamp("createdAt", createdAt, into: &bytes)
            tweet.value("entities", entities, into: &bytes)
            tweet.integer("id", id, into: &bytes)
            tweet.integer("inReplyToId", inReplyToID, into: &bytes)
            tweet.boolean("likedByMe", likedByMe, into: &bytes)
            tweet.integer("likesCount", Int64(counts.likes), into: &bytes)
            tweet.key("quoted", into: &bytes)
            writeQuoted(into: &bytes) { quoted, bytes in quoted.writeJSON(into: &bytes) }
            tweet.integer("quotesCount", Int64(counts.quotes), into: &bytes)
            tweet.integer("repliesCount", Int64(counts.replies), into: &bytes)
            tweet.key("repostOf", into: &bytes)
            if let original = repostOf { original.writeJSON(into: &bytes) } else { bytes.append(contentsOf: Self.null) }
            tweet.boolean("repostedByMe", repostedByMe, into: &bytes)
            tweet.integer("repostsCount", Int64(counts.reposts), into: &bytes)
            tweet.string("text", text, into: &bytes)
        }
    }

    /// Writes `quoted`: the quoted tweet as `writeTweet` writes it, `{"id","unavailable":true}`, `{"id"}` when it
    /// was not resolved for a reader (a quoted tweet's own quote, one level down), or null for no quote.
    func writeQuoted(into bytes: inout [UInt8], writeTweet: (Tweet, inout [UInt8]) -> Void) {
        switch quoted {
        case .tweet(let tweet)?:
            writeTweet(tweet, &bytes)
        case .unavailable(let id)?:
            bytes.append(contentsOf: Self.idKey)
            JSONObjectWriter.writeInteger(id, into: &bytes)
            bytes.append(contentsOf: Self.unavailableEnd)
        case nil:
            guard let quoteOfID else {
                bytes.append(contentsOf: Self.null)
                return
            }
            bytes.append(contentsOf: Self.idKey)
            JSONObjectWriter.writeInteger(quoteOfID, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes this tweet from `parts` (its own), with `writeOriginal` writing a repost's original and a quoted
    /// tweet.
    func write(
        _ parts: JSONParts, into bytes: inout [UInt8], writeOriginal: (Tweet, inout [UInt8]) -> Void
    ) {
        var noNotes: PageMarks? = nil
        write(parts, into: &bytes, noting: &noNotes) { original, bytes, _ in writeOriginal(original, &bytes) }
    }

    /// `write(_:into:writeOriginal:)`, noting in `marks`, when there are any, where each of this tweet's marks
    /// is written (`PageMarks`); `writeOriginal` is given them for a repost's original. A quoted tweet's marks
    /// are not noted: a page holding a quote is never answered from its kept bytes.
    func write(
        _ parts: JSONParts, into bytes: inout [UInt8], noting marks: inout PageMarks?,
        writeOriginal: (Tweet, inout [UInt8], inout PageMarks?) -> Void
    ) {
        bytes.append(contentsOf: parts.head)
        marks?.note(.bookmarked, of: id, value: bookmarkedByMe, at: bytes.count)
        bytes.append(contentsOf: bookmarkedByMe ? Self.trueBytes : Self.falseBytes)
        bytes.append(contentsOf: parts.body)
        marks?.note(.liked, of: id, value: likedByMe, at: bytes.count)
        bytes.append(contentsOf: likedByMe ? Self.trueBytes : Self.falseBytes)
        bytes.append(contentsOf: parts.middle)
        writeQuoted(into: &bytes) { quoted, bytes in
            var noNotes: PageMarks? = nil
            writeOriginal(quoted, &bytes, &noNotes)
        }
        bytes.append(contentsOf: parts.counts)
        if let original = repostOf {
            writeOriginal(original, &bytes, &marks)
        } else {
            bytes.append(contentsOf: Self.null)
        }
        bytes.append(contentsOf: Self.repostedKey)
        marks?.note(.reposted, of: id, value: repostedByMe, at: bytes.count)
        bytes.append(contentsOf: repostedByMe ? Self.trueBytes : Self.falseBytes)
        bytes.append(contentsOf: parts.tail)
    }

    /// The parts of this tweet, formatted afresh.
    func jsonParts() -> JSONParts {
        var head: [UInt8] = []
        JSONObjectWriter.writeOpen(into: &head) { tweet, bytes in
            tweet.key("author", into: &bytes)
            JSONObjectWriter.write(into: &bytes) { author, bytes in
                author.integer("id", self.author.id, into: &bytes)
                author.string("username", self.author.username, into: &bytes)
            }
            tweet.key("bookmarkedByMe", into: &bytes)
        }
        // Written as an object's opening members, then its `{` made the `,` that follows the head's mark.
        var body: [UInt8] = []
        JSONObjectWriter.writeOpen(into: &body) { tweet, bytes in
            tweet.timestamp("createdAt", createdAt, into: &bytes)
            tweet.value("entities", entities, into: &bytes)
            tweet.integer("id", id, into: &bytes)
            tweet.integer("inReplyToId", inReplyToID, into: &bytes)
            tweet.key("likedByMe", into: &bytes)
        }
        body[0] = UInt8(ascii: ",")
        var middle = Array(#","likesCount":"#.utf8)
        JSONObjectWriter.writeInteger(Int64(counts.likes), into: &middle)
        middle += Array(#","quoted":"#.utf8)
        var countsPart = Array(#","quotesCount":"#.utf8)
        JSONObjectWriter.writeInteger(Int64(counts.quotes), into: &countsPart)
        countsPart += Array(#","repliesCount":"#.utf8)
        JSONObjectWriter.writeInteger(Int64(counts.replies), into: &countsPart)
        countsPart += Array(#","repostOf":"#.utf8)
        var tail = Array(#","repostsCount":"#.utf8)
        JSONObjectWriter.writeInteger(Int64(counts.reposts), into: &tail)
        tail += Array(#","text":"#.utf8)
        JSONValue.writeString(text, into: &tail)
        tail.append(UInt8(ascii: "}"))
        return JSONParts(head: head, body: body, middle: middle, counts: countsPart, tail: tail)
    }

    /// Whether `other` has the same parts: equal in everything but the marks, the quoted tweet and the original's
    /// contents.
    func hasSameParts(as other: Tweet) -> Bool {
        id == other.id && author == other.author && text == other.text && createdAt == other.createdAt
            && inReplyToID == other.inReplyToID && counts == other.counts && entities == other.entities
    }

    private static let null = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let repostedKey = Array(#","repostedByMe":"#.utf8)
    private static let idKey = Array(#"{"id":"#.utf8)
    private static let unavailableEnd = Array(#","unavailable":true}"#.utf8)
}

/// Entities, keys sorted: `{"hashtags":[{"end","start","tag"}],"mentions":[{"end","start","username"}],
/// "urls":[{"end","start","url"}]}`; most tweets have none, and those write one constant.
extension TweetEntities: JSONWritable {
    /// Writes the three lists.
    public func writeJSON(into bytes: inout [UInt8]) {
        guard !isEmpty else {
            bytes.append(contentsOf: Self.none)
            return
        }
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.key("hashtags", into: &bytes)
            Self.writeList(hashtags, into: &bytes) { hashtag, entry, bytes in
                entry.integer("end", Int64(hashtag.end), into: &bytes)
                entry.integer("start", Int64(hashtag.start), into: &bytes)
                entry.string("tag", hashtag.tag, into: &bytes)
            }
            object.key("mentions", into: &bytes)
            Self.writeList(mentions, into: &bytes) { mention, entry, bytes in
                entry.integer("end", Int64(mention.end), into: &bytes)
                entry.integer("start", Int64(mention.start), into: &bytes)
                entry.string("username", mention.username, into: &bytes)
            }
            object.key("urls", into: &bytes)
            Self.writeList(urls, into: &bytes) { link, entry, bytes in
                entry.integer("end", Int64(link.end), into: &bytes)
                entry.integer("start", Int64(link.start), into: &bytes)
                entry.string("url", link.url, into: &bytes)
            }
        }
    }

    private static let none = Array(#"{"hashtags":[],"mentions":[],"urls":[]}"#.utf8)

    private static func writeList<Element>(
        _ list: [Element], into bytes: inout [UInt8],
        _ writeEntry: (Element, inout JSONObjectWriter, inout [UInt8]) -> Void
    ) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in list.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONObjectWriter.write(into: &bytes) { entry, bytes in writeEntry(element, &entry, &bytes) }
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
