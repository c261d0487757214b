import TwitterAPI
import TwitterCore

/// The most bytes a page of a list can weigh from what other accounts wrote, derived from the bounds of every
/// stored text (`FreeText.maximumBytes`), so that no page passes `limits.max_answer_bytes` (-32600 for every
/// reader of it) because of what someone else posted.
///
/// A stored text of at most `n` characters holds at most 4`n` bytes of UTF-8 and no control character but
/// newline, so its JSON is at most twice its bytes (`"`, `\` and newline take two; JSONWriter writes the rest
/// as they are). A tweet's entities are cut from its text: a mention or a tag takes at least 2 characters and a
/// space, and its JSON object (name, start, end) at most 48 bytes, a link's object at most 40 bytes and its URL
/// twice its bytes, so they are bounded by 16 bytes a character. Everything else in an item (ids, counts,
/// dates, flags, a username of at most 15 ASCII characters) is bounded by `fixedBytes`. A tweet item is at
/// worst three tweets: a repost carries its original, which may quote another.
public enum PageWeight {
    /// An upper bound of everything in one value but its free texts and entities.
    public static let fixedBytes = 512
    /// How many tweets one item of a page of tweets may carry: a repost, its original and the original's quote.
    public static let tweetsPerItem = 3

    /// The JSON of a stored text of at most `characters` characters, quotes included.
    public static func text(characters: Int) -> Int {
        2 * FreeText.maximumBytes(characters: characters) + 2
    }

    /// One tweet of at most `characters` characters, with its entities.
    public static func tweet(characters: Int) -> Int {
        text(characters: characters) + 16 * characters + fixedBytes
    }

    /// One item of a page of tweets (timelines, `tweets.fetch`, quotes, bookmarks, search, a notification).
    public static func tweetItem(characters: Int) -> Int {
        tweetsPerItem * tweet(characters: characters) + fixedBytes
    }

    /// The heaviest page of each kind a reader can ask for, by name, for a daemon whose tweets hold at most
    /// `tweetCharacters` characters.
    public static func worstPages(tweetCharacters: Int) -> [(kind: String, bytes: Int)] {
        let name = text(characters: ProfileRules.maximumNameLength)
        let person = 2 * name + fixedBytes
        let overview = person + text(characters: 160) + tweetItem(characters: tweetCharacters)
        let message = text(characters: MessageServices.maximumLength) + fixedBytes
        // A report's reason may end with the reported message, appended by the daemon.
        let reason = text(characters: AdminMethods.maximumTextLength + MessageServices.maximumLength + 64)
        let report = reason + text(characters: AdminMethods.maximumTextLength) + fixedBytes
        let list = text(characters: 25) + text(characters: 100) + fixedBytes
        return [
            ("tweets", API.PageSize.tweets.maximum * tweetItem(characters: tweetCharacters)),
            ("notifications", API.PageSize.tweets.maximum * (tweetItem(characters: tweetCharacters) + person)),
            ("people", API.PageSize.people.maximum * overview),
            ("search", API.PageSize.search.maximum * overview),
            ("messages", API.PageSize.messages.maximum * message),
            ("conversations", API.PageSize.search.maximum * (message + 50 * fixedBytes)),
            ("reports", API.PageSize.people.maximum * report),
            ("audit", API.PageSize.people.maximum * report),
            ("lists", API.PageSize.people.maximum * list),
        ]
    }

    /// The longest tweet a daemon answering at most `maximumAnswerBytes` a line can allow: its heaviest page of
    /// tweets still fits, with 1 KiB for the envelope.
    public static func longestTweet(answeringAtMost maximumAnswerBytes: Int) -> Int {
        let perItem = (maximumAnswerBytes - 1024) / API.PageSize.tweets.maximum
        let perTweet = (perItem - fixedBytes) / tweetsPerItem - fixedBytes - 2
        return max(0, perTweet / (2 * FreeText.maximumBytesPerCharacter + 16))
    }
}
