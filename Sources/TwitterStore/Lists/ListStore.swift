import Foundation
import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// Lists in SQLite. Every write reads `ListRule`'s facts and applies its plan in one transaction on the one
/// writer, so `members_count` moves with the rows; membership changes are reported to the observer for the
/// lists' live streams.
public struct ListStore: ListStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; committed membership changes are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Inserts the list, as checked and normalised by the caller.
    public func createList(_ draft: ListDraft, by ownerID: Int64) async throws -> UserList {
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO lists (owner_id, name, description, is_private, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [ownerID, draft.name, draft.description, draft.isPrivate, Date().storagePrecision])
            return try Self.required(db, id: db.lastInsertedRowID)
        }
    }

    /// Writes the present fields, once `ListRule.requireOwner` allows it.
    public func updateList(_ id: Int64, _ patch: ListPatch, by userID: Int64) async throws -> UserList {
        try await reporter.write { db in
            let facts = try ListRule.requireOwner(id, facts: try Self.facts(db, of: id), actor: userID)
            try db.execute(
                sql: """
                    UPDATE lists SET name = COALESCE(?, name), description = COALESCE(?, description),
                        is_private = COALESCE(?, is_private)
                    WHERE id = ?
                    """, arguments: [patch.name, patch.description, patch.isPrivate, id])
            return (try Self.required(db, id: id), ListRule.updateEvents(id, facts: facts, patch: patch))
        }
    }

    /// Deletes the list; its memberships go by cascade, each reported as it leaves the streams.
    public func deleteList(_ id: Int64, by userID: Int64) async throws {
        try await reporter.write { db in
            _ = try ListRule.requireOwner(id, facts: try Self.facts(db, of: id), actor: userID)
            let members = try Int64.fetchAll(
                db, sql: "SELECT member_id FROM list_members WHERE list_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM lists WHERE id = ?", arguments: [id])
            return ((), ListRule.deletionEvents(of: id, memberIDs: members))
        }
    }

    /// Reads the list, the block between owner and member and the membership, then applies `ListRule.add`.
    public func addMember(_ memberID: Int64, to listID: Int64, by userID: Int64) async throws -> UserList {
        try await reporter.write { db in
            let facts = try Self.facts(db, of: listID)
            let blockBetween = try facts.map { try Interactions.blocker(db, between: $0.ownerID, and: memberID) != nil }
            let plan = try ListRule.add(
                memberID, to: listID, facts: facts, by: userID, isMember: try Self.isMember(db, memberID, of: listID),
                blockBetween: blockBetween ?? false)
            if plan.changesRow {
                try db.execute(
                    sql: "INSERT INTO list_members (list_id, member_id, created_at) VALUES (?, ?, ?)",
                    arguments: [listID, memberID, Date().storagePrecision])
            }
            try Self.move(db, listID, by: plan.countDelta)
            return (try Self.required(db, id: listID), plan.events)
        }
    }

    /// Reads the list and the membership, then applies `ListRule.remove`.
    public func removeMember(_ memberID: Int64, from listID: Int64, by userID: Int64) async throws -> UserList {
        try await reporter.write { db in
            let plan = try ListRule.remove(
                memberID, from: listID, facts: try Self.facts(db, of: listID), by: userID,
                isMember: try Self.isMember(db, memberID, of: listID))
            if plan.changesRow {
                try db.execute(
                    sql: "DELETE FROM list_members WHERE list_id = ? AND member_id = ?", arguments: [listID, memberID])
            }
            try Self.move(db, listID, by: plan.countDelta)
            return (try Self.required(db, id: listID), plan.events)
        }
    }

    /// The list with its owner's name; nil when none, or its owner is suspended.
    public func list(id: Int64) async throws -> UserList? {
        try await database.writer.read { db in try Self.fetch(db, id: id) }
    }

    /// Walks the (owner_id, id) index.
    public func lists(ownedBy ownerID: Int64, includingPrivate: Bool) async throws -> [UserList] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db, sql: Self.select("WHERE lists.owner_id = ? AND (? OR NOT lists.is_private) ORDER BY lists.id"),
                arguments: [ownerID, includingPrivate]
            ).map(Self.list(from:))
        }
    }

    /// Walks the (list_id, id) index back from the cursor, as every page of people.
    public func members(of listID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.writer.read { db in
            try UserPageQuery.fetch(
                db, relationshipTable: "list_members", ownerColumn: "list_id", personColumn: "member_id",
                owner: listID, page: page)
        }
    }

    /// Every member's id, in one read.
    public func memberIDs(of listID: Int64) async throws -> Set<Int64> {
        try await database.writer.read { db in
            Set(
                try Int64.fetchAll(db, sql: "SELECT member_id FROM list_members WHERE list_id = ?", arguments: [listID])
            )
        }
    }
}

extension ListStore {
    /// The facts `ListRule` decides on; nil when there is no such list (or its owner is suspended).
    static func facts(_ db: Database, of id: Int64) throws -> ListRule.Facts? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT owner_id, is_private, members_count FROM lists
                WHERE id = ? AND \(AccountStanding.notSuspended("owner_id"))
                """, arguments: [id]
        ).map {
            ListRule.Facts(ownerID: $0["owner_id"], isPrivate: $0["is_private"], membersCount: $0["members_count"])
        }
    }

    static func isMember(_ db: Database, _ memberID: Int64, of listID: Int64) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS(SELECT 1 FROM list_members WHERE list_id = ? AND member_id = ?)",
            arguments: [listID, memberID]) ?? false
    }

    /// Moves the counter as the plan says.
    static func move(_ db: Database, _ listID: Int64, by delta: Int) throws {
        guard delta != 0 else { return }
        try db.execute(
            sql: "UPDATE lists SET members_count = members_count + ? WHERE id = ?", arguments: [delta, listID])
    }

    /// Ends the memberships a block between `blocker` and `blocked` ends (`ListRule.membershipsEndedByBlock`),
    /// moving their lists' counters; the events of the ended ones.
    static func endMemberships(_ db: Database, blocker: Int64, blocked: Int64) throws -> [TweetEvent] {
        var ended: [(listID: Int64, memberID: Int64)] = []
        for (owner, member) in ListRule.membershipsEndedByBlock(blocker: blocker, blocked: blocked) {
            let lists = try Int64.fetchAll(
                db,
                sql: """
                    SELECT list_members.list_id FROM list_members JOIN lists ON lists.id = list_members.list_id
                    WHERE lists.owner_id = ? AND list_members.member_id = ? ORDER BY list_members.list_id
                    """, arguments: [owner, member])
            for list in lists {
                try db.execute(
                    sql: "DELETE FROM list_members WHERE list_id = ? AND member_id = ?", arguments: [list, member])
                try move(db, list, by: -1)
                ended.append((list, member))
            }
        }
        return ListRule.endedEvents(ended)
    }

    /// Before an account's deletion: its memberships in others' lists leave their counters (the rows go with the
    /// account by cascade).
    static func withdrawMemberships(_ db: Database, of userID: Int64) throws {
        try db.execute(
            sql: """
                UPDATE lists SET members_count = members_count - 1
                WHERE id IN (SELECT list_id FROM list_members WHERE member_id = ?)
                """, arguments: [userID])
    }

    /// The list's columns with its owner's name, for `list(from:)`.
    static func select(_ clause: String) -> String {
        """
        SELECT lists.id, lists.name, lists.description, lists.is_private, lists.members_count, lists.created_at,
            lists.owner_id, users.username
        FROM lists JOIN users ON users.id = lists.owner_id
        \(clause)
        """
    }

    static func fetch(_ db: Database, id: Int64) throws -> UserList? {
        try Row.fetchOne(
            db, sql: select("WHERE lists.id = ? AND \(AccountStanding.notSuspended("lists.owner_id"))"),
            arguments: [id]
        ).map(list(from:))
    }

    /// The list after a write that found it.
    static func required(_ db: Database, id: Int64) throws -> UserList {
        guard let list = try fetch(db, id: id) else { throw TwitterError.notFound("List \(id)") }
        return list
    }

    static func list(from row: Row) -> UserList {
        UserList(
            id: row["id"], name: row["name"], description: row["description"], isPrivate: row["is_private"],
            owner: Tweet.Author(id: row["owner_id"], username: row["username"]), membersCount: row["members_count"],
            createdAt: row["created_at"])
    }
}
