import Synchronization
import TwitterCore

/// The read model's third layer: the answers to hot queries at the feed's current version, ready to send.
///
/// Many readers polling "the newest twenty" between two posts all get the same bytes; keeping them makes
/// such a fetch a lookup and a copy. A public page is the same for every reader, so the reader is not part
/// of the key: the kept bytes are the answer for a reader who has marked none of the page's tweets, and the
/// tweets are kept beside them for the others. A home or user page is keyed by its timeline (the home's
/// owner is in it), which spares the merge of a hundred accounts' windows on every poll. Any commit moves
/// the version on and empties the cache.
final class FeedPageCache: Sendable {
    /// A kept page: its tweets, its answer for a reader without marks on them, and where a reader's marks go in
    /// that answer (`PageMarks`), when known.
    struct Page {
        let tweets: [Tweet]
        let unmarkedJSON: [UInt8]
        var marks: PageMarks? = nil

        /// The page of `tweets` written from `json`, with where the marks go.
        init(_ tweets: [Tweet], json: TweetJSONCache) {
            let (page, marks) = FeedPage.kept(tweets, json: json)
            self.init(tweets: tweets, unmarkedJSON: page.json, marks: marks)
        }

        init(tweets: [Tweet], unmarkedJSON: [UInt8], marks: PageMarks? = nil) {
            self.tweets = tweets
            self.unmarkedJSON = unmarkedJSON
            self.marks = marks
        }
    }

    struct Key: Hashable {
        let timeline: Timeline
        let sinceID: Int64?
        let maxID: Int64?
        let limit: Int

        init(_ query: TweetQuery) {
            timeline = query.timeline
            sinceID = query.sinceID
            maxID = query.maxID
            limit = query.limit
        }
    }

    private struct State {
        var version = -1
        var pages: [Key: Page] = [:]
    }

    /// How many pages it keeps; past it, pages are answered but not kept until the version moves on.
    let capacity: Int

    private let state = Mutex(State())

    /// A cache of at most `capacity` pages. The public feed's: enough for every reader's usual query, few
    /// enough that odd `sinceId`s cannot grow it without bound.
    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The kept answer to `query` at feed version `version`.
    func page(for query: TweetQuery, at version: Int) -> Page? {
        state.withLock { state in
            state.version == version ? state.pages[Key(query)] : nil
        }
    }

    /// Keeps the answer to `query` read at feed version `version`.
    func keep(_ page: Page, for query: TweetQuery, at version: Int) {
        state.withLock { state in
            if version > state.version {
                state = State(version: version)
            }
            guard version == state.version, state.pages.count < capacity else { return }
            state.pages[Key(query)] = page
        }
    }
}
