import Foundation

// @MemberwiseInit
/// An account as admins see it.
public struct ModeratedAccount: Sendable, Hashable {
    /// The account's id.
    public var id: Int64
    /// The public handle.
    public var username: String
    /// The e-mail it signed up with.
    public var email: String
    /// Active or suspended.
    public var status: AccountStatus
    /// When it signed up.
    public var createdAt: Date
    /// Why it was suspended; nil when active.
    public var suspendedReason: String?
    /// The stored role.
    public var role: AccountRole = .user
}

/// A report's place in the admins' queue.
public enum ReportStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for an admin.
    case open
    /// Handled; `note` says how.
    case resolved
}

// @MemberwiseInit
/// A user's report of an account or a tweet, as admins read it: on the wire `tweetId` and `note` are null
/// when absent, never left out.
public struct Report: Sendable, Hashable, Codable {
    /// Its id.
    public var id: Int64
    /// Who reported.
    public var reporter: String
    /// The account reported, or the reported tweet's author.
    public var username: String
    /// The tweet reported, if one was.
    @NullWhenAbsent public var tweetID: Int64? = nil
    /// The reporter's words.
    public var reason: String
    /// Open or resolved.
    public var status: ReportStatus
    /// When it was made.
    public var createdAt: Date
    /// The resolving admin's note.
    @NullWhenAbsent public var note: String? = nil

    enum CodingKeys: String, CodingKey {
        case id, reporter, username, reason, status, createdAt, note
        case tweetID = "tweetId"
    }
}

// @MemberwiseInit
/// One admin action as the audit log keeps it: names, not ids, so it outlives the accounts. On the wire
/// `reason` is null when none was given.
public struct AuditEntry: Sendable, Hashable, Codable {
    /// Its id; larger is newer. 0 before it is stored.
    public var id: Int64 = 0
    /// The admin's username.
    public var actor: String
    /// The method, such as `admin.users.suspend`.
    public var action: String
    /// What it acted on: a username, `tweet 42`, `report 7`.
    public var target: String
    /// The reason or note given, if any.
    @NullWhenAbsent public var reason: String? = nil
    /// When.
    public var createdAt: Date
}

// @MemberwiseInit
/// A page of some list ordered by id, newest first, with the position the next page starts below.
public struct IDPage<Item: Sendable>: Sendable {
    /// The items.
    public var items: [Item]
    /// Pass as `PageRequest.before` for the next page; nil at the end.
    public var next: Int64?

    /// The page of `rows`, read one past `limit` (the store asks for `limit + 1`): the first `limit`, and the
    /// last one's id as the cursor when the extra row shows there is more. Every store pages this way.
    public init(overfetched rows: [Item], limit: Int, id: (Item) -> Int64) {
        let shown = Array(rows.prefix(limit))
        self.init(items: shown, next: rows.count > limit ? shown.last.map(id) : nil)
    }
}

/// What admins do, as stored. A suspension hides an account from every read (the reads leave out suspended
/// authors, actors and people) and takes its likes, reposts and replies out of others' counters, to put
/// them back exactly on unsuspension; each change is reported to the commit observer as
/// `AccountEvent.standingChanged`.
public protocol ModerationStoring: Sendable {
    /// Accounts whose username or e-mail contains `query` (any case), of `status` when given, newest first.
    func accounts(matching query: String?, status: AccountStatus?, page: PageRequest) async throws
        -> IDPage<ModeratedAccount>
    /// The account named `username`, suspended or not.
    func account(named username: String) async throws -> ModeratedAccount?
    /// Suspends `userID` for `reason`; false when it already was.
    func suspend(_ userID: Int64, reason: String, at now: Date) async throws -> Bool
    /// Lifts the suspension of `userID`; false when it was not suspended.
    func unsuspend(_ userID: Int64) async throws -> Bool
    /// Why `userID` is suspended; nil when it is not.
    func suspension(of userID: Int64) async throws -> String?
    /// Deletes tweet `id` whoever wrote it, as its author's deletion would; returns the author's username.
    func removeTweet(_ id: Int64) async throws -> String
    /// Files a report by `reporterID` on `accountID` (and `tweetID`), notifying each of `admins` in the same
    /// transaction; returns its id.
    func createReport(
        by reporterID: Int64, account accountID: Int64, tweet tweetID: Int64?, reason: String,
        notifying admins: [Int64],
        at now: Date
    ) async throws -> Int64
    /// Reports of `status` (any when nil), newest first.
    func reports(status: ReportStatus?, page: PageRequest) async throws -> IDPage<Report>
    /// Resolves report `id` with `note`; nil when there is no such report.
    func resolveReport(_ id: Int64, note: String?, by admin: String, at now: Date) async throws -> Report?
    /// Appends to the audit log and returns the entry with its id.
    func record(_ entry: AuditEntry) async throws -> AuditEntry
    /// The audit log, newest first.
    func auditEntries(page: PageRequest) async throws -> IDPage<AuditEntry>
    /// The stored role of `userID` (`.user` when there is no such account).
    func role(of userID: Int64) async throws -> AccountRole
    /// Stores `role` for `userID`; false when it had that role already or there is no such account.
    func setRole(_ role: AccountRole, of userID: Int64) async throws -> Bool
    /// The accounts whose stored role is `role`.
    func accounts(withRole role: AccountRole) async throws -> [Int64]
}
