/// Lists: accounts an owner gathers to read their tweets together. Each store reads the facts of a write and
/// applies `ListRule`'s plan in one transaction; a membership's change is reported to the store's observer
/// (`RelationEvent.listed`, `.unlisted`), which live list streams follow. Nobody is told they were added.
public protocol ListStoring: Sendable {
    /// Makes a list of `ownerID`'s from a checked, normalised draft.
    func createList(_ draft: ListDraft, by ownerID: Int64) async throws -> UserList
    /// Changes the present fields of list `id`: its owner's alone (`ListRule.requireOwner`).
    func updateList(_ id: Int64, _ patch: ListPatch, by userID: Int64) async throws -> UserList
    /// Deletes list `id` and its memberships: its owner's alone.
    func deleteList(_ id: Int64, by userID: Int64) async throws
    /// Adds `memberID` to list `listID` as `ListRule.add` decides; the list as it is now.
    func addMember(_ memberID: Int64, to listID: Int64, by userID: Int64) async throws -> UserList
    /// Takes `memberID` off list `listID`; removing a non-member changes nothing. The list as it is now.
    func removeMember(_ memberID: Int64, from listID: Int64, by userID: Int64) async throws -> UserList
    /// List `id` as stored, private or not; nil when there is none. Who may see it is `UserList.isVisible`.
    func list(id: Int64) async throws -> UserList?
    /// The lists `ownerID` owns, oldest first; its private ones only when `includingPrivate`.
    func lists(ownedBy ownerID: Int64, includingPrivate: Bool) async throws -> [UserList]
    /// A page of list `listID`'s members, newest membership first, leaving out `page.hiding` and suspended
    /// accounts.
    func members(of listID: Int64, page: PageRequest) async throws -> UserPage
    /// Every member's id: what a live list stream starts from.
    func memberIDs(of listID: Int64) async throws -> Set<Int64>
}
