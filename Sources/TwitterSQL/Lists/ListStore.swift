import Foundation
import TwitterCore
import TwitterRules

/// Lists. Every write locks the list's row (`FOR UPDATE`) before it reads `ListRule`'s facts, so
/// writes to one list from any daemon or connection take turns and `members_count` moves with the rows;
/// membership changes are ordered writes, reported for the lists' live streams.
public struct ListStore: ListStoring {
    let database: ObservedDatabase

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Inserts the list, as checked and normalised by the caller.
    public func createList(_ draft: ListDraft, by ownerID: Int64) async throws -> UserList {
        try await database.transaction { connection in
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO lists (owner_id, name, description, is_private, created_at)
                    VALUES (\(ownerID), \(draft.name), \(draft.description), \(draft.isPrivate), \(connection.dialect.stored(Date())))
                    RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The list was not made") }
            return try await Self.required(connection, id: id)
        }
    }

    /// Writes the present fields, once `ListRule.requireOwner` allows it, the row locked.
    public func updateList(_ id: Int64, _ patch: ListPatch, by userID: Int64) async throws -> UserList {
        try await database.orderedWrite { connection in
            let facts = try ListRule.requireOwner(
                id, facts: try await Self.lockedFacts(connection, of: id, actor: userID), actor: userID)
            try await connection.run(
                """
                UPDATE lists SET name = COALESCE(\(patch.name), name),
                    description = COALESCE(\(patch.description), description),
                    is_private = COALESCE(\(patch.isPrivate), is_private)
                WHERE id = \(id)
                """)
            return (
                try await Self.required(connection, id: id), ListRule.updateEvents(id, facts: facts, patch: patch)
            )
        }
    }

    /// Deletes the list; its memberships go by cascade, each reported as it leaves the streams.
    public func deleteList(_ id: Int64, by userID: Int64) async throws {
        try await database.orderedWrite { connection in
            _ = try ListRule.requireOwner(
                id, facts: try await Self.lockedFacts(connection, of: id, actor: userID), actor: userID)
            let members = try await connection.values(
                "SELECT member_id FROM list_members WHERE list_id = \(id)", as: Int64.self)
            try await connection.run("DELETE FROM lists WHERE id = \(id)")
            return ((), ListRule.deletionEvents(of: id, memberIDs: members))
        }
    }

    /// Reads the locked list, the block between owner and member and the membership, then applies
    /// `ListRule.add`.
    public func addMember(_ memberID: Int64, to listID: Int64, by userID: Int64) async throws -> UserList {
        try await database.orderedWrite { connection in
            let facts = try await Self.lockedFacts(connection, of: listID, actor: userID)
            var blockBetween = false
            if let facts {
                blockBetween = try await Blocks.blocker(connection, between: facts.ownerID, and: memberID) != nil
            }
            let plan = try ListRule.add(
                memberID, to: listID, facts: facts, by: userID,
                isMember: try await Self.isMember(connection, memberID, of: listID), blockBetween: blockBetween)
            if plan.changesRow { try await Relationship.listMembers.insert(connection, of: listID, to: memberID) }
            try await Self.move(connection, listID, by: plan.countDelta)
            return (try await Self.required(connection, id: listID), plan.events)
        }
    }

    /// Reads the locked list and the membership, then applies `ListRule.remove`.
    public func removeMember(_ memberID: Int64, from listID: Int64, by userID: Int64) async throws -> UserList {
        try await database.orderedWrite { connection in
            let plan = try ListRule.remove(
                memberID, from: listID, facts: try await Self.lockedFacts(connection, of: listID, actor: userID),
                by: userID,
                isMember: try await Self.isMember(connection, memberID, of: listID))
            if plan.changesRow { try await Relationship.listMembers.delete(connection, of: listID, to: memberID) }
            try await Self.move(connection, listID, by: plan.countDelta)
            return (try await Self.required(connection, id: listID), plan.events)
        }
    }

    /// The list with its owner's name; nil when none, or its owner is suspended.
    public func list(id: Int64) async throws -> UserList? {
        try await database.read { connection in try await Self.fetch(connection, id: id) }
    }

    /// Walks the (owner_id, id) index.
    public func lists(ownedBy ownerID: Int64, includingPrivate: Bool) async throws -> [UserList] {
        try await database.read { connection in
            try await connection.rows(
                Self.select(
                    "WHERE lists.owner_id = \(ownerID) AND (\(includingPrivate) OR NOT lists.is_private) ORDER BY lists.id"
                )
            ).map(Self.list(from:))
        }
    }

    /// Walks the (list_id, id) index back from the cursor, as every page of people.
    public func members(of listID: Int64, page: PageRequest) async throws -> UserPage {
        try await UserPageQuery.read(.listMembers, from: listID, page: page, on: database)
    }

    /// Every member's id, in one read.
    public func memberIDs(of listID: Int64) async throws -> Set<Int64> {
        try await database.read { connection in
            Set(
                try await connection.values(
                    "SELECT member_id FROM list_members WHERE list_id = \(listID)", as: Int64.self))
        }
    }
}

extension ListStore {
    /// The facts `ListRule` decides on for `actor`, with the list's row locked until the transaction ends; nil
    /// when there is no such list (or its owner is suspended). The members are counted from the rows, suspended
    /// ones included, since the cap holds whoever is suspended now and comes back later; whether a block stands
    /// between the owner and the actor is read here, in the write's transaction, so a block being committed
    /// hides the list from the write as it does from a read.
    static func lockedFacts(_ connection: any SQLConnection, of id: Int64, actor: Int64) async throws
        -> ListRule.Facts?
    {
        guard
            let row = try await connection.firstRow(
                """
                SELECT owner_id, is_private FROM lists
                WHERE id = \(id) AND \(AccountStanding.notSuspended("owner_id"))\(lock: .forUpdate)
                """)
        else { return nil }
        let owner: Int64 = try row.column("owner_id")
        let members =
            try await connection.value("SELECT count(*) FROM list_members WHERE list_id = \(id)", as: Int64.self) ?? 0
        var blocked = false
        if owner != actor { blocked = try await Blocks.blocker(connection, between: owner, and: actor) != nil }
        return ListRule.Facts(
            ownerID: owner, isPrivate: try row.column("is_private"), membersCount: Int(members),
            blockedWithActor: blocked)
    }

    static func isMember(_ connection: any SQLConnection, _ memberID: Int64, of listID: Int64) async throws
        -> Bool
    {
        try await connection.value(
            "SELECT EXISTS(SELECT 1 FROM list_members WHERE list_id = \(listID) AND member_id = \(memberID))",
            as: Bool.self) ?? false
    }

    /// Moves the counter as the plan says.
    static func move(_ connection: any SQLConnection, _ listID: Int64, by delta: Int) async throws {
        guard delta != 0 else { return }
        try await connection.run(
            "UPDATE lists SET members_count = members_count + \(delta) WHERE id = \(listID)")
    }

    /// Ends the memberships a block between `blocker` and `blocked` ends (`ListRule.membershipsEndedByBlock`),
    /// moving their lists' counters under their row locks; the events of the ended ones.
    static func endMemberships(_ connection: any SQLConnection, blocker: Int64, blocked: Int64) async throws
        -> [CommitEvent]
    {
        var ended: [(listID: Int64, memberID: Int64)] = []
        for (owner, member) in ListRule.membershipsEndedByBlock(blocker: blocker, blocked: blocked) {
            let lists = try await connection.values(
                """
                SELECT lists.id FROM lists JOIN list_members ON list_members.list_id = lists.id
                WHERE lists.owner_id = \(owner) AND list_members.member_id = \(member)
                ORDER BY lists.id\(lock: .forUpdateOf("lists"))
                """, as: Int64.self)
            for list in lists {
                try await Relationship.listMembers.delete(connection, of: list, to: member)
                try await move(connection, list, by: -1)
                ended.append((list, member))
            }
        }
        return ListRule.endedEvents(ended)
    }

    /// The list's columns with its owner's name, for `list(from:)`, then `clause`.
    static func select(_ clause: SQLQuery) -> SQLQuery {
        """
        SELECT lists.id, lists.name, lists.description, lists.is_private, lists.members_count, lists.created_at,
            lists.owner_id, users.username
        FROM lists JOIN users ON users.id = lists.owner_id
        \(clause)
        """
    }

    static func fetch(_ connection: any SQLConnection, id: Int64) async throws -> UserList? {
        try await connection.firstRow(
            select("WHERE lists.id = \(id) AND \(AccountStanding.notSuspended("lists.owner_id"))")
        ).map(list(from:))
    }

    /// The list after a write that found it.
    static func required(_ connection: any SQLConnection, id: Int64) async throws -> UserList {
        guard let list = try await fetch(connection, id: id) else { throw TwitterError.notFound("List \(id)") }
        return list
    }

    static func list(from row: SQLRow) throws -> UserList {
        UserList(
            id: try row.column("id"), name: try row.column("name"), description: try row.column("description"),
            isPrivate: try row.column("is_private"),
            owner: Tweet.Author(id: try row.column("owner_id"), username: try row.column("username")),
            membersCount: try row.column("members_count"), createdAt: try row.column("created_at"))
    }
}
