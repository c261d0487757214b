import Foundation
import TwitterCore

/// What the model asks of the daemon; the screen's runner makes the call and answers with an `Event`.
public enum Effect: Sendable, Equatable {
    /// Load a tab's first page.
    case load(Tab)
    /// Load a tweet's thread.
    case loadThread(Int64)
    /// Load a person's profile and tweets.
    case loadProfile(String)
    /// Post a tweet, or a reply.
    case post(text: String, inReplyTo: Int64?)
    /// Quote a tweet, with text or none (quotes, issue #36).
    case quote(text: String, of: Int64)
    /// Like (true) or unlike a tweet.
    case like(Int64, Bool)
    /// Repost (true) or un-repost a tweet.
    case repost(Int64, Bool)
    /// Follow (true) or unfollow someone.
    case follow(String, Bool)
    /// Bookmark (true) or un-bookmark a tweet (bookmarks, issue #36).
    case bookmark(Int64, Bool)
    /// Mark notifications read up to this id.
    case markRead(upTo: Int64)

    /// Whether it sends the editor's text (a post, a reply, a quote): a refusal goes back to the editor.
    public var posts: Bool {
        switch self {
        case .post, .quote: true
        default: false
        }
    }
}

/// What happened: the daemon's answers, its live notifications, the link coming and going.
public enum Event: Sendable, Equatable {
    /// Connected and logged in as `account`.
    case connected(account: String, capabilities: Capabilities)
    /// The daemon went away; reconnecting.
    case disconnected(String)
    /// A tab's page of tweets; `homeIsPublic` when home shows the public timeline.
    case timeline(Tab, [Tweet], homeIsPublic: Bool)
    /// The notifications page and the unread count.
    case notifications([ActivityNotification], unread: Int)
    /// A search's results.
    case searchResults(query: String, [Tweet])
    /// A thread, as the items of its tree.
    case thread(focus: Int64, [Item])
    /// A profile and the person's tweets.
    case profile(UserOverview, [Tweet])
    /// A new tweet on a subscribed timeline.
    case newTweet(Tab, Tweet)
    /// A tweet was deleted.
    case tweetDeleted(Int64)
    /// A new notification.
    case newNotification(ActivityNotification)
    /// The conversations page (direct messages).
    case conversations([ConversationLine])
    /// A new direct message in conversation `id`, from `sender` (the reader's own when it is `account`).
    case newMessage(conversation: Int64, people: [String], sender: String, text: String, at: Date)
    /// The tweet was posted.
    case posted(Tweet)
    /// The post was refused; the daemon's message.
    case postRefused(String)
    /// A like changed.
    case liked(Int64, liked: Bool, count: Int)
    /// A repost changed.
    case reposted(Int64, reposted: Bool)
    /// A follow changed.
    case followed(String, following: Bool)
    /// A bookmark changed.
    case bookmarked(Int64, Bool)
    /// A call failed; the message says why.
    case failed(String)
}
