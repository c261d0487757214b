import Foundation
import TwitterCore

/// Who hears of a report, once for every store: every admin but the reporter, one `admin.report` notification
/// each, in the admins' id order (so both stores give the ids out alike). Blocks and mutes do not stop a report
/// from reaching the admins: moderation must see what a blocker reports.
public enum ReportRule {
    /// The admins to notify of `reporter`'s report, each once, in id order.
    public static func recipients(admins: [Int64], reporter: Int64) -> [Int64] {
        Set(admins).subtracting([reporter]).sorted()
    }

    /// The report's events: one notification per recipient, in the order of `recipients`, for those the store
    /// wrote (`ids`: the new notification's id by recipient).
    public static func events(
        recipients: [Int64], ids: [Int64: Int64], reporter: Tweet.Author, tweet: Tweet?, reportID: Int64,
        at now: Date
    ) -> [CommitEvent] {
        recipients.compactMap { admin in
            ids[admin].map { id in
                .account(
                    .notified(
                        ActivityNotification(
                            id: id, type: .adminReport, createdAt: now,
                            from: .init(id: reporter.id, username: reporter.username), tweet: tweet, reportID: reportID),
                        recipientID: admin))
            }
        }
    }
}
