/// Durable storage of profiles.
public protocol ProfileStoring: Sendable {
    /// The profile of `userID`.
    func profile(userID: Int64) async throws -> Profile?
    /// The profile of the account named `username`, ignoring case.
    func profile(username: String) async throws -> Profile?
    /// Writes the fields of `patch` that differ from the stored profile, in one transaction; writes nothing
    /// when none differ. Throws `.conflict` when `expectedVersion` is stale (with `currentVersion`) or when
    /// a new e-mail or username is taken (naming the field).
    func updateProfile(userID: Int64, patch: ProfilePatch, expectedVersion: Int?) async throws -> ProfileUpdate
    /// Whether `userID`'s profile and tweets are on the public web pages (`profile.update {webVisible}`); true
    /// for an account that never said, false for none.
    func isWebVisible(userID: Int64) async throws -> Bool
    /// Keeps `userID`'s profile and tweets on the public web pages, or off them.
    func setWebVisible(_ visible: Bool, userID: Int64) async throws
    /// Every account that keeps itself off the web: few, so read whole, once a daemon (the read model keeps it).
    func webHiddenUsers() async throws -> Set<Int64>
}
