import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// What the message methods need: the store (which keeps texts only sealed), the sealer, the read model whose
/// hub carries sends live (they are commits like any other) and the text rule. (Its rate, `rates.messages`, is declared with `messages.send` and taken by the
/// dispatch, as every write's is.)
public struct MessageServices: Sendable {
    /// Conversations and their sealed messages.
    public var store: any MessageStoring
    /// Seals texts before the store sees them and opens what it returns.
    public var sealer: any MessageSealing
    /// The read model: its hub carries every commit, sends included, to the live streams.
    public var feed: FeedReadModel
    /// The text rule: a tweet's, up to 1,000 characters.
    public var text: TweetText

    /// The longest message, in grapheme clusters.
    public static let maximumLength = 1000
    /// How far a subscriber may fall behind before it gets messages.lagged.
    static let subscriberCapacity = 1000

    /// Creates the services; the store reports its sends, as commits, to the publisher `feed` is subscribed to.
    public init(store: any MessageStoring, sealer: any MessageSealing, feed: FeedReadModel) {
        self.store = store
        self.sealer = sealer
        self.feed = feed
        text = TweetText(maximumLength: Self.maximumLength, noun: "Message")
    }

    /// A stored message as the protocol shows it: its text opened, or the placeholder of a deleted one.
    func shown(_ message: StoredMessage) throws(TwitterError) -> API.Messages.Message {
        guard let sealed = message.sealedText else { return .placeholder(id: message.id) }
        return API.Messages.Message(
            id: message.id, conversationId: message.conversationID,
            sender: API.Messages.Sender(id: message.sender.id, username: message.sender.username),
            text: try sealer.open(sealed, at: MessagePlace(of: message)), createdAt: message.createdAt)
    }

    /// A conversation as the protocol shows it.
    func shown(_ conversation: ConversationSummary) throws(TwitterError) -> API.Messages.Conversation {
        API.Messages.Conversation(
            id: conversation.id,
            participants: conversation.members.map {
                API.Messages.Participant(id: $0.account.id, username: $0.account.username, leftAt: $0.leftAt)
            },
            lastMessage: try conversation.lastMessage.map { message throws(TwitterError) in try shown(message) },
            unreadCount: conversation.unreadCount, updatedAt: conversation.updatedAt)
    }

    /// Up to `limit` entries of `userID`'s conversations from `cursor`, with the messages it could read, opened,
    /// for `account.export`; and where the next page starts.
    func archive(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws
        -> (conversations: [ArchivedConversation], next: ArchiveCursor?)
    {
        let page = try await store.archive(of: userID, from: cursor, limit: limit)
        let conversations = try page.conversations.map { conversation in
            ArchivedConversation(
                id: conversation.id, participants: conversation.members.map(\.account.username),
                messages: try conversation.messages.map { message in
                    ArchivedMessage(
                        id: message.id, sender: message.sender.username,
                        text: try message.sealedText.map { sealed throws(TwitterError) in
                            try sealer.open(sealed, at: MessagePlace(of: message))
                        },
                        createdAt: message.createdAt)
                })
        }
        return (conversations, page.next)
    }
}
