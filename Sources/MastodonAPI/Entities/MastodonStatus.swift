import JSONRPC
import TwitterCore

/// Mastodon's Status entity (https://docs.joinmastodon.org/entities/Status/), written from a tweet as the layer
/// answered it for the caller: the marks (`favourited`, `reblogged`, `bookmarked`) are the caller's.
///
/// A repost is a Status whose `reblog` is the original, as on Mastodon; a quote carries Mastodon 4.5's `quote`
/// (`{state, quoted_status}`). Every tweet is `public`: a direct message is a Conversation's status, never a tweet.
/// There is no `scheduled_at` key: toot takes an answer holding one for a scheduled status.
enum MastodonStatus {
    /// How the Status shows a tweet the layer said nothing more of.
    struct Options: Sendable {
        /// Whether it is the caller's pinned tweet.
        var pinned = false
        /// The plain text, written only in the answer of a delete (Mastodon's "delete and redraft").
        var includesText = false
        /// `public` for a tweet; `direct` for a message shown as a Status.
        var visibility = "public"
    }

    /// Appends the Status of `tweet`; URLs start with `origin`.
    static func write(_ tweet: Tweet, origin: String, options: Options = Options(), into bytes: inout [UInt8]) {
        let url = origin + "/@" + tweet.author.username + "/" + String(tweet.id)
        let original = tweet.repostOf
        JSONObjectWriter.write(into: &bytes) { status, bytes in
            status.stringID("id", tweet.id, into: &bytes)
            status.string("uri", url, into: &bytes)
            status.string("url", url, into: &bytes)
            status.timestamp("created_at", tweet.createdAt, into: &bytes)
            status.raw("account", into: &bytes) { MastodonAccount(tweet.author).write(origin: origin, into: &$0) }
            status.string(
                "content",
                original == nil ? StatusContent.html(tweet.text, entities: tweet.entities, origin: origin) : "",
                into: &bytes)
            status.string("visibility", options.visibility, into: &bytes)
            status.boolean("sensitive", false, into: &bytes)
            status.string("spoiler_text", "", into: &bytes)
            status.emptyArray("media_attachments", into: &bytes)
            status.null("application", into: &bytes)
            status.raw("mentions", into: &bytes) { bytes in
                writeArray(tweet.entities.mentions, into: &bytes) { mention, bytes in
                    JSONObjectWriter.write(into: &bytes) { object, bytes in
                        object.string("id", mention.username, into: &bytes)
                        object.string("username", mention.username, into: &bytes)
                        object.url("url", origin, "/@", mention.username, into: &bytes)
                        object.string("acct", mention.username, into: &bytes)
                    }
                }
            }
            status.raw("tags", into: &bytes) { bytes in
                writeArray(tweet.entities.hashtags, into: &bytes) { hashtag, bytes in
                    JSONObjectWriter.write(into: &bytes) { object, bytes in
                        let name = hashtag.tag.lowercased()
                        object.string("name", name, into: &bytes)
                        object.url("url", origin, "/tags/", name, into: &bytes)
                    }
                }
            }
            status.emptyArray("emojis", into: &bytes)
            status.count("reblogs_count", tweet.counts.reposts, into: &bytes)
            status.count("favourites_count", tweet.counts.likes, into: &bytes)
            status.count("replies_count", tweet.counts.replies, into: &bytes)
            status.count("quotes_count", tweet.counts.quotes, into: &bytes)
            status.stringID("in_reply_to_id", tweet.inReplyToID, into: &bytes)
            status.null("in_reply_to_account_id", into: &bytes)
            status.raw("reblog", into: &bytes) { bytes in
                if let original {
                    write(original, origin: origin, into: &bytes)
                } else {
                    bytes.append(contentsOf: "null".utf8)
                }
            }
            status.raw("quote", into: &bytes) { writeQuote(of: tweet, origin: origin, into: &$0) }
            status.null("poll", into: &bytes)
            status.null("card", into: &bytes)
            status.null("language", into: &bytes)
            status.optionalString("text", options.includesText ? tweet.text : nil, into: &bytes)
            status.null("edited_at", into: &bytes)
            status.boolean("favourited", tweet.likedByMe, into: &bytes)
            status.boolean("reblogged", tweet.repostedByMe, into: &bytes)
            status.boolean("muted", false, into: &bytes)
            status.boolean("bookmarked", tweet.bookmarkedByMe, into: &bytes)
            status.boolean("pinned", options.pinned, into: &bytes)
            status.emptyArray("filtered", into: &bytes)
        }
    }

    /// `quote`: null for a tweet that quotes none; the quoted Status when the caller may see it; its state alone
    /// (`deleted`, which is also what a hidden one looks like) when not.
    private static func writeQuote(of tweet: Tweet, origin: String, into bytes: inout [UInt8]) {
        guard tweet.quoteOfID != nil || tweet.quoted != nil else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        JSONObjectWriter.write(into: &bytes) { quote, bytes in
            switch tweet.quoted {
            case .tweet(let quoted)?:
                quote.string("state", "accepted", into: &bytes)
                quote.raw("quoted_status", into: &bytes) { write(quoted, origin: origin, into: &$0) }
            case .unavailable?:
                quote.string("state", "deleted", into: &bytes)
                quote.null("quoted_status", into: &bytes)
            case nil:
                quote.string("state", "accepted", into: &bytes)
                quote.null("quoted_status", into: &bytes)
            }
        }
    }
}
