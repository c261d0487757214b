import Foundation
import TwitterCore

#if canImport(Glibc)
    import Glibc
#endif

/// Decides at login whether an account is an admin: its stored role says so (granted by an admin with
/// `admin.roles.grant`, kept with the account's id so a rename or a name that changes hands moves nothing); or
/// the kernel vouches that the connection's peer is the account's own Unix user (a peer login, or a uid linked to
/// the account) and that user is root or a member of a group in `[admin] groups`.
public struct AdminRoles: Sendable {
    private let groups: [String]
    /// The Unix groups of a uid: its primary group and every supplementary one. Replaced in tests.
    private let groupsOfUser: @Sendable (UInt32) -> Set<String>

    /// The roles `community` configures.
    public init(
        _ community: CommunityConfiguration,
        groupsOfUser: @escaping @Sendable (UInt32) -> Set<String> = AdminRoles.groups
    ) {
        groups = community.adminGroups
        self.groupsOfUser = groupsOfUser
    }

    /// The role of an account whose stored role is `stored`, logging in from `peer`; `peerIsAccount` when the
    /// kernel's uid is the account's.
    public func role(stored: AccountRole, peer: PeerCredentials, peerIsAccount: Bool) -> AccountRole {
        stored == .admin || (peerIsAccount && isAdmin(uid: peer.userID)) ? .admin : .user
    }

    /// Whether the Unix user `uid` is root or in an admin group.
    public func isAdmin(uid: UInt32) -> Bool {
        if uid == 0 { return true }
        guard !groups.isEmpty else { return false }
        let memberOf = groupsOfUser(uid)
        return groups.contains(where: memberOf.contains)
    }

    /// The accounts that are admins as far as the daemon can tell without a login: those whose stored role is
    /// admin, and those linked to the uid of root or of a member of an admin group. They get `admin.report`
    /// notifications.
    public func adminAccounts(
        moderation: any ModerationStoring, peerLinks: any PeerLinkStoring
    ) async throws -> [Int64] {
        var ids = try await moderation.accounts(withRole: .admin)
        for link in try await peerLinks.links() where isAdmin(uid: link.uid) && !ids.contains(link.userID) {
            ids.append(link.userID)
        }
        return ids
    }

    /// The names of `uid`'s groups as the system's user and group databases say (NSS: files, LDAP…).
    public static func groups(of uid: UInt32) -> Set<String> {
        var passwd = passwd()
        var buffer = [CChar](repeating: 0, count: 4096)
        var found: UnsafeMutablePointer<passwd>?
        guard getpwuid_r(uid, &passwd, &buffer, buffer.count, &found) == 0, found != nil, let name = passwd.pw_name
        else { return [] }
        var count: Int32 = 64
        var ids = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, passwd.pw_gid, &ids, &count) < 0 {
            ids = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, passwd.pw_gid, &ids, &count) >= 0 else { return [] }
        }
        var names: Set<String> = []
        for id in ids.prefix(Int(count)) {
            var group = group()
            var groupBuffer = [CChar](repeating: 0, count: 4096)
            var result: UnsafeMutablePointer<group>?
            if getgrgid_r(id, &group, &groupBuffer, groupBuffer.count, &result) == 0, result != nil,
                let groupName = group.gr_name
            {
                names.insert(String(cString: groupName))
            }
        }
        return names
    }
}
