import Foundation

// @MemberwiseInit
/// A local uid of a host that logs in as an account with provider "peer", and since when.
public struct PeerLink: Sendable, Hashable {
    /// The Unix uid the kernel reports for the connecting process.
    public var uid: UInt32
    /// The account it logs in as.
    public var userID: Int64
    /// When it was linked; nil for links made before the time was kept.
    public var linkedAt: Date?
    /// The identity of the machine the uid is on (`[database] host_id` or its machine id); "" for a store of no
    /// host (tests).
    public var host: String = ""
}

/// Durable storage of which local uid logs in as which account, for the uids of one host: a store is made for the
/// daemon's own host, and a uid is that host's.
public protocol PeerLinkStoring: Sendable {
    /// Links `uid` to `userID` at `date`, replacing an earlier link of that uid.
    func linkPeer(uid: UInt32, userID: Int64, at date: Date) async throws
    /// Removes the link of this host's `uid` if it points at `userID` (false when there was none), and logs
    /// `Revocation.peerLink` for the other daemons either way, in one transaction: a uid's link moved to another
    /// account may still have peer logins of this one.
    func unlinkPeer(uid: UInt32, userID: Int64) async throws -> Bool
    /// The account `uid` is linked to.
    func linkedUser(uid: UInt32) async throws -> User?
    /// The links to `userID` on every host, by host and uid.
    func links(userID: Int64) async throws -> [PeerLink]
    /// Every link, to find the accounts whose uid makes them admins.
    func links() async throws -> [(uid: UInt32, userID: Int64)]
}
