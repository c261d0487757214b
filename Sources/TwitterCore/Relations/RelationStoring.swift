/// Mutes and blocks. Each change is reported to the commit observer (`RelationEvent.muted` and the rest), so the
/// read model's per-reader `HiddenAccounts` follow them in commit order.
public protocol RelationStoring: Sendable {
    /// `userID` mutes `targetID`; false when it already did. Follows stay.
    func mute(_ targetID: Int64, by userID: Int64) async throws -> Bool
    /// Ends the mute; false when there was none.
    func unmute(_ targetID: Int64, by userID: Int64) async throws -> Bool
    /// `userID` blocks `targetID`, ending the follows between them both ways; false when it already did.
    func block(_ targetID: Int64, by userID: Int64) async throws -> Bool
    /// Ends the block (the follows it ended stay ended); false when there was none.
    func unblock(_ targetID: Int64, by userID: Int64) async throws -> Bool
    /// Whom `userID` mutes, newest mute first.
    func muted(by userID: Int64, page: PageRequest) async throws -> UserPage
    /// Whom `userID` blocks, newest block first.
    func blocked(by userID: Int64, page: PageRequest) async throws -> UserPage
    /// What `userID` does not see.
    func hiddenAccounts(of userID: Int64) async throws -> HiddenAccounts
}
