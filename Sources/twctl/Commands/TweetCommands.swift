import ArgumentParser
import TwitterAPI
import TwitterClient
import TwitterCore

/// The tweet a command acts on, by its id.
struct TweetTarget: VerbTarget {
    @Argument(help: "The tweet's id.")
    var id: Int

    /// The tweet's id as the methods take it.
    var params: API.Tweets.IDParams { .init(id: Int64(id)) }

    func params(on _: RPCConnection) -> API.Tweets.IDParams {
        params
    }
}

enum Like: Verb {
    static let configuration = CommandConfiguration(commandName: "like", abstract: "Like a tweet.")
    static let method = API.Tweets.like
    static func done(_ tweet: TweetTarget, _ answer: API.Tweets.Liked) -> String {
        "Liked #\(tweet.id) (\(Output.counted(answer.likesCount, "like")))."
    }
}

enum Unlike: Verb {
    static let configuration = CommandConfiguration(commandName: "unlike", abstract: "Take back a like.")
    static let method = API.Tweets.unlike
    static func done(_ tweet: TweetTarget, _ answer: API.Tweets.Liked) -> String {
        "No longer liking #\(tweet.id) (\(Output.counted(answer.likesCount, "like")))."
    }
}

enum Repost: Verb {
    static let configuration = CommandConfiguration(
        commandName: "repost", abstract: "Repost a tweet to your followers.")
    static let method = API.Tweets.repost
    static func done(_ tweet: TweetTarget, _ repost: Tweet) -> String { "Reposted #\(tweet.id) as #\(repost.id)." }
}

enum Unrepost: Verb {
    static let configuration = CommandConfiguration(
        commandName: "unrepost", abstract: "Take back a repost (give the original's id).")
    static let method = API.Tweets.unrepost
    static func done(_ tweet: TweetTarget, _: API.Tweets.Reposted) -> String { "Took back the repost of #\(tweet.id)." }
}

enum Delete: Verb {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one of your tweets.")
    static let method = API.Tweets.delete
    static func done(_ tweet: TweetTarget, _: API.Tweets.Deleted) -> String { "Deleted #\(tweet.id)." }
}
