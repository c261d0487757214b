import Foundation
import TwitterCore

/// The commit log's JSON for one ordered write's events, as `JSONEncoder` writes them and `JSONDecoder` reads
/// them back, with the events a group commit makes by the hundred (`TweetEvent.posted`, `.counted`) written by
/// hand. A `CommitEvent` is written as its subject's event alone (`CommitEvent+Codable`), so the hand-written
/// ones carry no subject either.
///
/// Why: the encoding runs inside the ordered write, under the advisory lock every daemon's writes take turns on.
/// In a profile of the PostgreSQL post load (64 × 4, bench/postgres.sh with BENCH_PERF=1), `JSONEncoder.encode`
/// of a batch's events was 18.8 % of the daemon's samples, over half of the connection loop's time, while each
/// batch held the lock. Other events go through `JSONEncoder`, one by one; `CommitLogJSONTests` decodes both
/// ways' output and holds them equal.
enum CommitLogJSON {
    /// The events as a JSON array.
    static func encode(_ events: [CommitEvent]) throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(events.count * 480)
        out.append(UInt8(ascii: "["))
        var encoder: JSONEncoder?
        for (index, event) in events.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            switch event {
            case .tweet(.posted(let tweet)):
                out += #"{"posted":{"_0":"#.utf8
                write(tweet, into: &out)
                out += "}}".utf8
            case .tweet(.counted(let id, let counts)):
                out += #"{"counted":{"id":"#.utf8
                out += String(id).utf8
                out += #","_1":"#.utf8
                write(counts, into: &out)
                out += "}}".utf8
            default:
                let slow = encoder ?? JSONEncoder()
                encoder = slow
                out += try slow.encode(event)
            }
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A tweet as `Tweet.encode(to:)` writes it.
    private static func write(_ tweet: Tweet, into out: inout [UInt8]) {
        out += #"{"id":"#.utf8
        out += String(tweet.id).utf8
        out += #","author":{"id":"#.utf8
        out += String(tweet.author.id).utf8
        out += #","username":"#.utf8
        write(tweet.author.username, into: &out)
        out += #"},"text":"#.utf8
        write(tweet.text, into: &out)
        // JSONEncoder's default for a date: seconds since 2001 as a number, which prints back to the same Double.
        out += #","createdAt":"#.utf8
        out += String(tweet.createdAt.timeIntervalSinceReferenceDate).utf8
        out += #","entities":{"mentions":"#.utf8
        spans(tweet.entities.mentions, named: "username", into: &out) { ($0.username, $0.start, $0.end) }
        out += #","hashtags":"#.utf8
        spans(tweet.entities.hashtags, named: "tag", into: &out) { ($0.tag, $0.start, $0.end) }
        out += #","urls":"#.utf8
        spans(tweet.entities.urls, named: "url", into: &out) { ($0.url, $0.start, $0.end) }
        out += #"},"inReplyToId":"#.utf8
        if let parent = tweet.inReplyToID { out += String(parent).utf8 } else { out += "null".utf8 }
        out += #","likesCount":"#.utf8
        out += String(tweet.counts.likes).utf8
        out += #","repostsCount":"#.utf8
        out += String(tweet.counts.reposts).utf8
        out += #","repliesCount":"#.utf8
        out += String(tweet.counts.replies).utf8
        out += #","repostOf":"#.utf8
        if let original = tweet.repostOf { write(original, into: &out) } else { out += "null".utf8 }
        out += #","likedByMe":"#.utf8
        out += (tweet.likedByMe ? "true" : "false").utf8
        out += #","repostedByMe":"#.utf8
        out += (tweet.repostedByMe ? "true" : "false").utf8
        out += #","bookmarkedByMe":"#.utf8
        out += (tweet.bookmarkedByMe ? "true" : "false").utf8
        out += #","quotesCount":"#.utf8
        out += String(tweet.counts.quotes).utf8
        out += #","quoted":"#.utf8
        switch tweet.quoted {
        case .tweet(let quoted)?:
            write(quoted, into: &out)
        case .unavailable(let id)?:
            out += #"{"id":"#.utf8
            out += String(id).utf8
            out += #","unavailable":true}"#.utf8
        case nil:
            if let quoteOfID = tweet.quoteOfID {
                out += #"{"id":"#.utf8
                out += String(quoteOfID).utf8
                out += "}".utf8
            } else {
                out += "null".utf8
            }
        }
        out += "}".utf8
    }

    private static func write(_ counts: TweetCounts, into out: inout [UInt8]) {
        out += #"{"likes":"#.utf8
        out += String(counts.likes).utf8
        out += #","reposts":"#.utf8
        out += String(counts.reposts).utf8
        out += #","replies":"#.utf8
        out += String(counts.replies).utf8
        out += #","quotes":"#.utf8
        out += String(counts.quotes).utf8
        out += "}".utf8
    }

    /// Entities of one kind as `[{"<name>":…,"start":…,"end":…},…]`.
    private static func spans<Entity>(
        _ entities: [Entity], named name: String, into out: inout [UInt8], _ parts: (Entity) -> (String, Int, Int)
    ) {
        out.append(UInt8(ascii: "["))
        for (index, entity) in entities.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let (text, start, end) = parts(entity)
            out += #"{""#.utf8
            out += name.utf8
            out += #"":"#.utf8
            write(text, into: &out)
            out += #","start":"#.utf8
            out += String(start).utf8
            out += #","end":"#.utf8
            out += String(end).utf8
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
    private static func write(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0..<0x20:
                out += #"\u00"#.utf8
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
