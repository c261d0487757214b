import Foundation
import Testing
import TwitterCore

/// A commit's events keep the JSON the commit log held when one enum had every case: each event as
/// `{"<case>":{…}}`, whatever its subject, so that daemons and log entries from before the split and after it
/// read each other.
struct CommitEventCodingTests {
    static let moment = Date(timeIntervalSinceReferenceDate: 786_000_000.5)
    static let tweet = Tweet(id: 5, author: .init(id: 1, username: "ann"), text: "hi", createdAt: moment)
    /// Its actor by name alone: the JSON of a notification names its actor so.
    static let notification = ActivityNotification(
        id: 9, type: .follow, createdAt: moment, from: .init(username: "bo"), tweet: nil)

    /// One event of every case, each with the JSON (keys sorted) `JSONEncoder` wrote for it before the split.
    static let logged: [(CommitEvent, String)] = [
        (
            .tweet(.posted(tweet)),
            #"{"posted":{"_0":{"author":{"id":1,"username":"ann"},"bookmarkedByMe":false,"createdAt":786000000.5,"#
                + #""entities":{"hashtags":[],"mentions":[],"urls":[]},"id":5,"inReplyToId":null,"likedByMe":false,"#
                + #""likesCount":0,"quoted":null,"quotesCount":0,"repliesCount":0,"repostOf":null,"#
                + #""repostedByMe":false,"repostsCount":0,"text":"hi"}}}"#
        ),
        (.tweet(.deleted(id: 5, authorID: 1, repostOf: nil)), #"{"deleted":{"authorID":1,"id":5}}"#),
        (.tweet(.deleted(id: 6, authorID: 1, repostOf: 5)), #"{"deleted":{"authorID":1,"id":6,"repostOf":5}}"#),
        (
            .tweet(.counted(id: 5, TweetCounts(likes: 1, reposts: 2, replies: 3, quotes: 4))),
            #"{"counted":{"_1":{"likes":1,"quotes":4,"replies":3,"reposts":2},"id":5}}"#
        ),
        (.tweet(.liked(id: 5, userID: 2)), #"{"liked":{"id":5,"userID":2}}"#),
        (.tweet(.unliked(id: 5, userID: 2)), #"{"unliked":{"id":5,"userID":2}}"#),
        (.tweet(.bookmarked(id: 5, userID: 2)), #"{"bookmarked":{"id":5,"userID":2}}"#),
        (.tweet(.unbookmarked(id: 5, userID: 2)), #"{"unbookmarked":{"id":5,"userID":2}}"#),
        (.relation(.followed(followerID: 2, followeeID: 1)), #"{"followed":{"followeeID":1,"followerID":2}}"#),
        (.relation(.unfollowed(followerID: 2, followeeID: 1)), #"{"unfollowed":{"followeeID":1,"followerID":2}}"#),
        (.relation(.muted(muterID: 2, mutedID: 1)), #"{"muted":{"mutedID":1,"muterID":2}}"#),
        (.relation(.unmuted(muterID: 2, mutedID: 1)), #"{"unmuted":{"mutedID":1,"muterID":2}}"#),
        (.relation(.blocked(blockerID: 2, blockedID: 1)), #"{"blocked":{"blockedID":1,"blockerID":2}}"#),
        (.relation(.unblocked(blockerID: 2, blockedID: 1)), #"{"unblocked":{"blockedID":1,"blockerID":2}}"#),
        (.relation(.listed(listID: 8, memberID: 1)), #"{"listed":{"listID":8,"memberID":1}}"#),
        (.relation(.unlisted(listID: 8, memberID: 1)), #"{"unlisted":{"listID":8,"memberID":1}}"#),
        (
            .relation(.listPrivacyChanged(listID: 8, ownerID: 2, isPrivate: true)),
            #"{"listPrivacyChanged":{"isPrivate":true,"listID":8,"ownerID":2}}"#
        ),
        (
            .account(.notified(notification, recipientID: 1)),
            #"{"notified":{"_0":{"createdAt":786000000.5,"from":{"username":"bo"},"id":9,"read":false,"#
                + #""tweet":null,"type":"follow"},"recipientID":1}}"#
        ),
        (.account(.standingChanged(userID: 1)), #"{"accountChanged":{"userID":1}}"#),
        (
            .account(.webVisibilityChanged(userID: 1, visible: false)),
            #"{"webVisibilityChanged":{"userID":1,"visible":false}}"#
        ),
        (
            .account(.revoked(.token(id: 4, userID: 1, reason: .loggedOut))),
            #"{"revoked":{"_0":{"token":{"id":4,"reason":"loggedOut","userID":1}}}}"#
        ),
        (
            .account(.revoked(.account(userID: 1, reason: .suspended))),
            #"{"revoked":{"_0":{"account":{"reason":"suspended","userID":1}}}}"#
        ),
        // A send, as the messages' own log (`message_events`) held it before sends became commits: its text
        // sealed, as a JSON array of bytes.
        (
            .message(
                .sent(
                    StoredMessage(
                        id: 3, conversationID: 2, sender: AccountName(id: 1, username: "ann"), sealedText: [84, 87],
                        createdAt: moment),
                    recipientIDs: [1, 2])),
            #"{"sent":{"_0":{"conversationID":2,"createdAt":786000000.5,"id":3,"sealedText":[84,87],"#
                + #""sender":{"id":1,"username":"ann"}},"recipientIDs":[1,2]}}"#
        ),
    ]

    @Test func eachEventIsWrittenAsBeforeTheSplit() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for (event, json) in Self.logged {
            #expect(String(decoding: try encoder.encode(event), as: UTF8.self) == json)
        }
    }

    @Test func eachEventLoggedBeforeTheSplitReadsBackAsItsSubjectsEvent() throws {
        let logged = "[" + Self.logged.map(\.1).joined(separator: ",") + "]"
        let decoded = try JSONDecoder().decode([CommitEvent].self, from: Data(logged.utf8))
        #expect(decoded == Self.logged.map(\.0))
    }

    @Test func anEventOfNoKnownCaseOrWithTwoKeysIsRefused() {
        for json in [
            #"{"shouted":{"id":1}}"#, #"{"liked":{"id":5,"userID":2},"muted":{"mutedID":1,"muterID":2}}"#, "{}",
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(CommitEvent.self, from: Data(json.utf8)) }
        }
    }
}
