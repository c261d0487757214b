import JSONRPC
import TwitterAPI
import TwitterCore

/// Mastodon's Conversation entity (https://docs.joinmastodon.org/entities/Conversation/) from one of our direct
/// message conversations: its other participants, and its last message as a `direct` Status.
///
/// A message's Status has the message's id: it is found through its conversation, never as `/statuses/:id`, which
/// names tweets.
enum MastodonConversation {
    /// Appends the Conversation as `caller` (left out of `accounts`) sees it; URLs start with `origin`.
    static func write(
        _ conversation: API.Messages.Conversation, caller: String, origin: String, into bytes: inout [UInt8]
    ) {
        JSONObjectWriter.write(into: &bytes) { object, bytes in
            object.stringID("id", conversation.id, into: &bytes)
            object.boolean("unread", conversation.unreadCount > 0, into: &bytes)
            object.raw("accounts", into: &bytes) { bytes in
                let others = conversation.participants.filter { $0.username.lowercased() != caller.lowercased() }
                writeArray(others, into: &bytes) { participant, bytes in
                    MastodonAccount(username: participant.username).write(origin: origin, into: &bytes)
                }
            }
            object.raw("last_status", into: &bytes) { bytes in
                if let message = conversation.lastMessage, message.deleted != true {
                    writeStatus(of: message, origin: origin, into: &bytes)
                } else {
                    bytes.append(contentsOf: "null".utf8)
                }
            }
        }
    }

    /// Appends a message as a `direct` Status: its text escaped, no links (a message keeps no entities).
    static func writeStatus(of message: API.Messages.Message, origin: String, into bytes: inout [UInt8]) {
        let sender = message.sender ?? AccountName(id: 0, username: "")
        let tweet = Tweet(
            id: message.id, author: sender, text: message.text ?? "", createdAt: message.createdAt ?? .distantPast)
        MastodonStatus.write(tweet, origin: origin, options: .init(visibility: "direct"), into: &bytes)
    }
}
