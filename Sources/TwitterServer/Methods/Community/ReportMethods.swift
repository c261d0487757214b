import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `reports.create`: any user reports an account or a tweet; the admins are notified in the same transaction.
struct ReportMethods: MethodGroup {
    let auth: AuthServices
    let tweets: TweetServices
    let community: CommunityServices
    let lookup: UserLookup
    /// The messages a participant may show the admins; nil when the daemon serves no messages.
    var messages: MessageServices?

    func register(in router: inout Router<RequestContext>) {
        let (auth, tweets, community, lookup, messages) = (auth, tweets, community, lookup, messages)
        router.register(
            API.Reports.create, in: .loggedIn,
            { (params: API.Reports.CreateParams, context) in
                let reporter = context.userID
                var reason = try AdminMethods.text(params.reason, field: "reason")
                let accountID: Int64
                if let messageID = params.messageId {
                    guard params.tweetId == nil else {
                        throw TwitterError.invalidFields(["messageId": "report a message or a tweet, not both"])
                    }
                    let shown = try await Self.reportedMessage(messageID, by: reporter, messages: messages)
                    accountID = shown.senderID
                    if let username = params.username, try await lookup.id(of: username) != accountID {
                        throw TwitterError.invalidFields(["username": "is not the sender of message \(messageID)"])
                    }
                    // The reporter shows the admins this one message: the only way an admin ever reads one.
                    reason += "\n\nMessage \(messageID) from @\(shown.sender): \(shown.text)"
                } else if let tweetID = params.tweetId {
                    // Only a tweet the reporter can see, through the read path every tweet is named by.
                    let tweet = try await tweets.access.tweet(tweetID, for: reporter)
                    accountID = tweet.author.id
                    if let username = params.username, try await lookup.id(of: username) != accountID {
                        throw TwitterError.invalidFields(["username": "is not the author of tweet \(tweetID)"])
                    }
                } else if let username = params.username {
                    accountID = try await lookup.id(of: username)
                } else {
                    throw TwitterError.invalidFields(["username": "give a username, a tweetId, or both"])
                }
                guard accountID != reporter else {
                    throw TwitterError.invalidFields(["username": "You can not report yourself"])
                }
                let admins = try await auth.roles.adminAccounts(
                    moderation: community.moderation, peerLinks: auth.peerLinks)
                let id = try await community.moderation.createReport(
                    by: reporter, account: accountID, tweet: params.tweetId, reason: reason, notifying: admins,
                    at: Date())
                if let messageID = params.messageId {
                    let reporterName = try await auth.users.user(id: reporter)?.username ?? "#\(reporter)"
                    _ = try await community.moderation.record(
                        AuditEntry(
                            actor: reporterName, action: "message.report", target: "message \(messageID)",
                            reason: "report \(id)", createdAt: Date()))
                }
                community.logger.info("report filed", metadata: ["report": "\(id)", "reporter": "\(reporter)"])
                return API.Reports.Created(id: id)
            })
    }

    /// The message `messageID` as its reporter, a member of its conversation, may read it; -32004 otherwise.
    static func reportedMessage(_ messageID: Int64, by reporter: Int64, messages: MessageServices?) async throws
        -> (senderID: Int64, sender: String, text: String)
    {
        guard let messages, let message = try await messages.store.message(messageID, for: reporter),
            let sealed = message.sealedText
        else { throw TwitterError.notFound("Message \(messageID)") }
        return (
            message.sender.id, message.sender.username, try messages.sealer.open(sealed, at: MessagePlace(of: message))
        )
    }
}
