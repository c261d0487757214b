/// Durable storage of which local uid logs in as which account.
public protocol PeerLinkStoring: Sendable {
    /// Links `uid` to `userID`, replacing an earlier link of that uid.
    func linkPeer(uid: UInt32, userID: Int64) async throws
    /// Removes the link of `uid` if it points at `userID`; false when there was none.
    func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool
    /// The account `uid` is linked to.
    func linkedUser(uid: UInt32) async throws -> User?
    /// Every link, to find the accounts whose uid makes them admins.
    func links() async throws -> [(uid: UInt32, userID: Int64)]
}
