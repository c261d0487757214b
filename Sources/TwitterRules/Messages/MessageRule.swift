import TwitterCore

/// Direct messages, decided once for every store: who may write to a conversation, who is told of a message,
/// who may read, delete or leave, and what a deletion leaves.
public enum MessageRule {
    /// The most accounts `to` may name: with the sender, a conversation has at most 50 members.
    public static let maximumRecipients = MessageDestination.maximumRecipients

    // @MemberwiseInit
    /// What a store reads about the sender before a send.
    public struct Sender: Sendable, Equatable {
        /// The sender.
        public var account: MessageAccount
        /// Whether it is suspended.
        public var isSuspended: Bool
    }

    // @MemberwiseInit
    /// What a store reads about one other member (or named account) before a send.
    public struct Recipient: Sendable, Equatable {
        /// The account.
        public var account: MessageAccount
        /// Whether it is suspended.
        public var isSuspended: Bool
        /// Whom it takes messages from.
        public var messagesFrom: MessagesFrom
        /// Whether it follows the sender.
        public var followsSender: Bool
        /// Whether a block stands between it and the sender, either way.
        public var isBlockedEitherWay: Bool
        /// Whether it has written in this conversation itself: then it hears the answers whatever its setting.
        public var hasWrittenHere: Bool
        /// Whether it left this conversation (it is named again by `to`, which brings it back).
        public var hasLeft: Bool = false
    }

    /// Where a send goes, as the store found it.
    public enum Target: Sendable, Equatable {
        /// A conversation named by id that does not exist, or that the sender is not (or no longer) in.
        case outside
        /// A conversation named by id the sender is in; `others` are its other members still in it.
        case conversation(id: Int64, others: [Recipient])
        /// The conversation of exactly the sender and `named` (`to`); `existing` is its id when it was made before.
        case members(existing: Int64?, named: [Recipient])
    }

    // @MemberwiseInit
    /// What a permitted send writes.
    public struct SendPlan: Sendable, Equatable {
        /// The conversation to make first, when the send named members of none yet.
        public var createsConversation: Bool
        /// Members who had left and are named again: they are back from this message on.
        public var rejoining: [Int64]
        /// Who is told, live, in id order: the sender and every other member still in the conversation.
        public var recipientIDs: [Int64]
    }

    /// The decision on a send: the plan, or the error that refuses it. An outsider learns nothing (-32004,
    /// whether or not the conversation exists); a block either way, a recipient's setting or its suspension is
    /// -32003 naming the username; a suspended sender is -32003.
    public static func send(from sender: Sender, to target: Target) -> Result<SendPlan, TwitterError> {
        guard !sender.isSuspended else {
            return .failure(TwitterError(.forbidden, "A suspended account cannot send messages"))
        }
        let others: [Recipient]
        let plan: (Bool, [Int64])
        switch target {
        case .outside:
            return .failure(TwitterError.notFound("Conversation"))
        case .conversation(_, let members):
            others = members
            plan = (false, [])
        case .members(let existing, let named):
            others = named
            plan = (existing == nil, existing == nil ? [] : named.filter(\.hasLeft).map(\.account.id))
        }
        for recipient in others {
            if let refusal = refusal(of: recipient, for: sender.account) { return .failure(refusal) }
        }
        let told = Set(others.map(\.account.id) + [sender.account.id]).sorted()
        return .success(SendPlan(createsConversation: plan.0, rejoining: plan.1, recipientIDs: told))
    }

    /// Why `recipient` refuses a message from `sender`, if it does.
    public static func refusal(of recipient: Recipient, for sender: MessageAccount) -> TwitterError? {
        let name = recipient.account.username
        if recipient.isBlockedEitherWay {
            return TwitterError(
                .forbidden, "You cannot message @\(name): a block stands between you",
                details: ["username": .string(name)])
        }
        if recipient.isSuspended {
            return TwitterError(
                .forbidden, "@\(name) is suspended and cannot receive messages", details: ["username": .string(name)])
        }
        guard !recipient.hasWrittenHere else { return nil }
        let accepts =
            switch recipient.messagesFrom {
            case .everyone: true
            case .following: recipient.followsSender
            case .nobody: false
            }
        guard accepts else {
            return TwitterError(
                .forbidden, "@\(name) does not take messages from you", details: ["username": .string(name)])
        }
        return nil
    }

    /// Whether an account may read, mark, or leave a conversation: only a member still in it; anyone else is
    /// told it does not exist.
    public static func memberRefusal(isMember: Bool) -> TwitterError? {
        isMember ? nil : TwitterError.notFound("Conversation")
    }

    /// What a deletion leaves.
    public enum DeletionPlan: Sendable, Equatable {
        /// The text goes for everyone; the message's row stays as a placeholder in its place.
        case placeholder
        /// Already a placeholder: nothing to write.
        case nothing
    }

    /// The decision on deleting a message: only its sender may, and anyone else (a member or not) is told it
    /// does not exist (-32004).
    public static func delete(
        messageSenderID: Int64?, isDeleted: Bool, by userID: Int64
    ) -> Result<DeletionPlan, TwitterError> {
        guard let messageSenderID, messageSenderID == userID else { return .failure(TwitterError.notFound("Message")) }
        return .success(isDeleted ? .nothing : .placeholder)
    }

    /// The events of a committed send, in order.
    public static func events(of message: StoredMessage, plan: SendPlan) -> [CommitEvent] {
        [.message(.sent(message, recipientIDs: plan.recipientIDs))]
    }

    /// The key `to` finds its conversation by: the members' ids, sorted, the sender's among them.
    public static func membersKey(_ ids: [Int64]) -> String {
        Set(ids).sorted().map(String.init).joined(separator: ",")
    }
}
