import Foundation
import Synchronization
import Testing
import TwitterCore
import TwitterRuntime
import TwitterSQL
import TwitterSQLite

@testable import TwitterServer

/// Who is an admin: accounts whose stored role says so, and, when the kernel vouches for the peer, root and the
/// members of `[admin] groups`. A configured name makes no one an admin.
struct AdminRolesTests {
    static let groups: [UInt32: Set<String>] = [1000: ["users", "twadmins"], 1001: ["users"], 1002: ["wheel"]]

    /// Counts the group database's look-ups.
    final class Lookups: Sendable {
        private let count = Mutex(0)

        var value: Int { count.withLock { $0 } }

        func add() { count.withLock { $0 += 1 } }
    }

    /// Roles over a fake group database that counts its look-ups.
    static func roles(users: [String] = [], groups: [String] = ["twadmins", "wheel"]) -> (
        AdminRoles, Lookups
    ) {
        var configuration = CommunityConfiguration()
        configuration.adminUsers = users
        configuration.adminGroups = groups
        let lookups = Lookups()
        let roles = AdminRoles(configuration) { uid in
            lookups.add()
            return Self.groups[uid] ?? []
        }
        return (roles, lookups)
    }

    static func peer(_ uid: UInt32) -> PeerCredentials {
        PeerCredentials(userID: uid, groupID: uid, processID: 1)
    }

    @Test func theStoredRoleMakesAnAdminFromAnyPeerAndAConfiguredNameMakesNone() {
        let (roles, _) = Self.roles(users: ["alice"])
        #expect(roles.role(stored: .admin, peer: Self.peer(1001), peerIsAccount: false) == .admin)
        #expect(
            roles.role(stored: .user, peer: Self.peer(1001), peerIsAccount: false) == .user,
            "[admin] users is retired: the name grants nothing")
    }

    @Test func rootIsAnAdminOnlyWhenThePeerIsTheAccount() {
        let (roles, _) = Self.roles(users: [], groups: [])
        #expect(roles.role(stored: .user, peer: Self.peer(0), peerIsAccount: true) == .admin)
        #expect(
            roles.role(stored: .user, peer: Self.peer(0), peerIsAccount: false) == .user,
            "root logging in to someone's account with their password is that someone")
        #expect(roles.isAdmin(uid: 0))
    }

    @Test func groupMembersAreAdminsOnlyWhenThePeerIsTheAccount() {
        let (roles, lookups) = Self.roles()
        #expect(roles.role(stored: .user, peer: Self.peer(1000), peerIsAccount: true) == .admin, "in twadmins")
        #expect(roles.role(stored: .user, peer: Self.peer(1002), peerIsAccount: true) == .admin, "in wheel")
        #expect(roles.role(stored: .user, peer: Self.peer(1001), peerIsAccount: true) == .user)
        #expect(roles.role(stored: .user, peer: Self.peer(4242), peerIsAccount: true) == .user, "unknown to the system")
        #expect(roles.role(stored: .user, peer: Self.peer(1000), peerIsAccount: false) == .user)
        #expect(lookups.value >= 4)

        let (noGroups, noLookups) = Self.roles(groups: [])
        #expect(!noGroups.isAdmin(uid: 1000))
        #expect(noLookups.value == 0, "no groups configured: the group database is not asked")
    }

    @Test func theAdminAccountsAreTheStoredAndTheLinkedAdmins() async throws {
        let database = try AppDatabase.inMemory()
        let users = UserStore(database: database)
        let links = PeerLinkStore(database: database)
        let moderation = ModerationStore(database: database, observer: FeedReadModel(hub: CommitHub()))
        var ids: [String: Int64] = [:]
        for name in ["alice", "bob", "carol", "dave", "erin"] {
            ids[name] = try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil).id
        }
        #expect(try await moderation.setRole(.admin, of: try #require(ids["alice"])))
        try await links.linkPeer(uid: 1000, userID: try #require(ids["carol"]), at: Date())
        try await links.linkPeer(uid: 1001, userID: try #require(ids["dave"]), at: Date())
        try await links.linkPeer(uid: 0, userID: try #require(ids["erin"]), at: Date())
        let (roles, _) = Self.roles(users: ["bob", "ghost"])
        let admins = try await roles.adminAccounts(moderation: moderation, peerLinks: links)
        #expect(Set(admins) == Set(["alice", "carol", "erin"].compactMap { ids[$0] }))
    }
}
