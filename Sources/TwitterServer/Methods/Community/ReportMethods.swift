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

    func register(in router: inout Router<RequestContext>) {
        let (auth, tweets, community, lookup) = (auth, tweets, community, lookup)
        router.register(
            API.Reports.create,
            .awaited { (params: API.Reports.CreateParams, context) in
                let reporter = try context.session.requireLogin().userID
                let reason = try AdminMethods.text(params.reason, field: "reason")
                let accountID: Int64
                if let tweetID = params.tweetId {
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
                try tweets.rates.take(.reports, by: reporter)
                let admins = try await auth.roles.adminAccounts(
                    moderation: community.moderation, peerLinks: auth.peerLinks)
                let id = try await community.moderation.createReport(
                    by: reporter, account: accountID, tweet: params.tweetId, reason: reason, notifying: admins,
                    at: Date())
                community.logger.info("report filed", metadata: ["report": "\(id)", "reporter": "\(reporter)"])
                return API.Reports.Created(id: id)
            })
    }
}
