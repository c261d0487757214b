import Foundation
import Testing
import TwitterCore

/// Lists on every backend: the owner's alone to change, members paged and counted exactly under concurrent
/// writes, 500 at most, refused across a block and ended by one, gone with the owner and the member, and the
/// members' tweets paged as home's.
struct ListStoreTests {
    @Test(arguments: StoreBackend.all) func aListIsMadeChangedAndDeletedByItsOwnerAlone(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let list = try await fixture.lists.createList(ListDraft(name: "friends", description: "mine"), by: alice.id)
        #expect(list.name == "friends" && list.description == "mine" && !list.isPrivate && list.membersCount == 0)
        #expect(list.owner == Tweet.Author(id: alice.id, username: "alice"))
        let secret = try await fixture.lists.createList(ListDraft(name: "secret", isPrivate: true), by: alice.id)

        let renamed = try await fixture.lists.updateList(list.id, ListPatch(name: "pals"), by: alice.id)
        #expect(renamed.name == "pals" && renamed.description == "mine", "absent fields stay")
        #expect(try await fixture.lists.updateList(list.id, ListPatch(isPrivate: true), by: alice.id).isPrivate)
        #expect(
            fixture.commits.events.last
                == .relation(.listPrivacyChanged(listID: list.id, ownerID: alice.id, isPrivate: true)))
        let reopened = try await fixture.lists.updateList(list.id, ListPatch(isPrivate: false), by: alice.id)
        #expect(!reopened.isPrivate && reopened.name == "pals")
        #expect(try await fixture.lists.list(id: list.id) == reopened)
        for (id, kind) in [(list.id, TwitterError.Kind.forbidden), (secret.id, .notFound), (999_999, .notFound)] {
            await #expect {
                try await fixture.lists.updateList(id, ListPatch(name: "mine now"), by: bob.id)
            } throws: {
                ($0 as? TwitterError)?.kind == kind
            }
            await #expect {
                try await fixture.lists.addMember(carol.id, to: id, by: bob.id)
            } throws: {
                ($0 as? TwitterError)?.kind == kind
            }
            await #expect { try await fixture.lists.deleteList(id, by: bob.id) } throws: {
                ($0 as? TwitterError)?.kind == kind
            }
        }
        #expect(
            try await fixture.lists.lists(ownedBy: alice.id, includingPrivate: true).map(\.id) == [list.id, secret.id])
        #expect(try await fixture.lists.lists(ownedBy: alice.id, includingPrivate: false).map(\.id) == [list.id])

        _ = try await fixture.lists.addMember(bob.id, to: list.id, by: alice.id)
        #expect(fixture.commits.events.last == .relation(.listed(listID: list.id, memberID: bob.id)))
        #expect(
            !fixture.commits.events.contains { if case .account(.notified) = $0 { true } else { false } },
            "nobody is told")
        try await fixture.lists.deleteList(list.id, by: alice.id)
        #expect(fixture.commits.events.last == .relation(.unlisted(listID: list.id, memberID: bob.id)))
        #expect(try await fixture.lists.list(id: list.id) == nil)
        #expect(try await fixture.lists.memberIDs(of: list.id).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func membersArePagedAndCountedAndABlockRefusesOrEndsThem(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol, dave) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol"),
            try await fixture.user("dave")
        )
        let list = try await fixture.lists.createList(ListDraft(name: "people"), by: alice.id)
        for member in [bob, carol, dave] { _ = try await fixture.lists.addMember(member.id, to: list.id, by: alice.id) }
        #expect(try await fixture.lists.addMember(bob.id, to: list.id, by: alice.id).membersCount == 3, "again: same")
        var names: [String] = []
        var before: Int64?
        repeat {
            let page = try await fixture.lists.members(of: list.id, page: PageRequest(limit: 2, before: before))
            names += page.users.map(\.username)
            before = page.next
        } while before != nil
        #expect(names == ["dave", "carol", "bob"], "newest first")
        #expect(try await fixture.lists.members(of: list.id, page: PageRequest(hiding: [carol.id])).users.count == 2)

        #expect(try await fixture.lists.removeMember(dave.id, from: list.id, by: alice.id).membersCount == 2)
        #expect(try await fixture.lists.removeMember(dave.id, from: list.id, by: alice.id).membersCount == 2)

        // Mastodon's way: the member who blocks the owner leaves the owner's lists; nor can it be added again.
        _ = try await fixture.relations.block(alice.id, by: bob.id)
        #expect(fixture.commits.events.contains(.relation(.unlisted(listID: list.id, memberID: bob.id))))
        #expect(try await fixture.lists.list(id: list.id)?.membersCount == 1)
        #expect(try await fixture.lists.memberIDs(of: list.id) == [carol.id])
        await #expect { try await fixture.lists.addMember(bob.id, to: list.id, by: alice.id) } throws: {
            ($0 as? TwitterError)?.kind == .forbidden
        }
        // The owner's own block of a member ends it too.
        _ = try await fixture.relations.block(carol.id, by: alice.id)
        #expect(try await fixture.lists.list(id: list.id)?.membersCount == 0)
    }

    @Test(arguments: StoreBackend.all) func theCountIsTheRowsUnderConcurrentWritesAndStopsAtFiveHundred(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let owner = try await fixture.user("owner")
        var people: [User] = []
        for index in 0..<(ListRuleLimit.maximum + 1) { people.append(try await fixture.user("member\(index)")) }
        let list = try await fixture.lists.createList(ListDraft(name: "crowd"), by: owner.id)
        // Adds from many connections at once, each member twice, with removals of some in between.
        let ids = people.map(\.id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, id) in ids.prefix(60).enumerated() {
                group.addTask { _ = try await fixture.lists.addMember(id, to: list.id, by: owner.id) }
                group.addTask { _ = try await fixture.lists.addMember(id, to: list.id, by: owner.id) }
                if index.isMultiple(of: 3) {
                    group.addTask { _ = try await fixture.lists.removeMember(id, from: list.id, by: owner.id) }
                }
            }
            try await group.waitForAll()
        }
        let counted = try #require(try await fixture.lists.list(id: list.id)).membersCount
        #expect(counted == (try await fixture.lists.memberIDs(of: list.id)).count, "the count is the rows")

        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in ids.prefix(ListRuleLimit.maximum) {
                group.addTask { _ = try await fixture.lists.addMember(id, to: list.id, by: owner.id) }
            }
            try await group.waitForAll()
        }
        #expect(try await fixture.lists.list(id: list.id)?.membersCount == ListRuleLimit.maximum)
        await #expect {
            try await fixture.lists.addMember(ids[ListRuleLimit.maximum], to: list.id, by: owner.id)
        } throws: {
            ($0 as? TwitterError)?.kind == .conflict
        }
        #expect(try await fixture.lists.memberIDs(of: list.id).count == ListRuleLimit.maximum)
    }

    @Test(arguments: StoreBackend.all) func anAccountsDeletionTakesItsListsAndItsMemberships(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let alices = try await fixture.lists.createList(ListDraft(name: "alice's"), by: alice.id)
        let bobs = try await fixture.lists.createList(ListDraft(name: "bob's"), by: bob.id)
        _ = try await fixture.lists.addMember(carol.id, to: alices.id, by: alice.id)
        _ = try await fixture.lists.addMember(alice.id, to: bobs.id, by: bob.id)
        _ = try await fixture.lists.addMember(carol.id, to: bobs.id, by: bob.id)
        let archive = try await fixture.accounts.archivePage(of: alice.id, from: .start, limit: 100)
        #expect(archive.lists.map(\.name) == ["alice's"] && archive.lists[0].members.map(\.username) == ["carol"])
        // One list a page: the cursor goes on past it.
        let second = try await fixture.lists.createList(ListDraft(name: "second"), by: alice.id)
        let first = try await fixture.accounts.archivePage(
            of: alice.id, from: ArchiveCursor(section: .lists, after: 0), limit: 1)
        let next = try #require(first.next)
        let rest = try await fixture.accounts.archivePage(of: alice.id, from: next, limit: 1)
        #expect(first.lists.map(\.id) == [alices.id] && rest.lists.map(\.id) == [second.id])
        try await fixture.accounts.deleteAccount(alice.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await fixture.lists.list(id: alices.id) == nil)
        #expect(try await fixture.lists.list(id: bobs.id)?.membersCount == 1, "the count moves with the rows")
        #expect(try await fixture.lists.memberIDs(of: bobs.id) == [carol.id])
    }

    @Test(arguments: StoreBackend.all) func theListTimelineIsTheMembersTweetsAndRepostsNewestFirst(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let list = try await fixture.lists.createList(ListDraft(name: "bob"), by: alice.id)
        _ = try await fixture.lists.addMember(bob.id, to: list.id, by: alice.id)
        let first = try await fixture.post("bob one", by: bob)
        _ = try await fixture.post("carol's", by: carol)
        _ = try await fixture.post("alice's own", by: alice)
        let carols = try await fixture.post("carol two", by: carol)
        let repost = try await fixture.tweets.repost(carols.id, by: bob.id)
        let page = try await fixture.tweets.tweets(TweetQuery(.list(list.id)))
        #expect(page.map(\.id) == [repost.id, first.id], "members only, the owner's own not among them")
        #expect(try await fixture.tweets.tweets(TweetQuery(.list(list.id), maxID: repost.id)).map(\.id) == [first.id])
        #expect(
            try await fixture.tweets.tweets(after: first.id, in: .list(list.id), limit: 10).map(\.id) == [repost.id])
        #expect(try await fixture.tweets.tweets(TweetQuery(.list(list.id), hiding: [carol.id])).map(\.id) == [first.id])
    }
}

/// The cap, as the store suite uses it without importing the rules.
enum ListRuleLimit {
    static let maximum = 500
}

/// Issue #48, items 8 and 9, on every backend: a block hides the owner's list from every write that names it, in
/// the write's transaction, as if there were none; a suspended member leaves `membersCount`, and comes back to it.
struct ListTrustStoreTests {
    @Test(arguments: StoreBackend.all) func acrossABlockEitherWayAWriteFindsNoList(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let list = try await fixture.lists.createList(ListDraft(name: "public"), by: alice.id)
        _ = try await fixture.lists.addMember(carol.id, to: list.id, by: alice.id)
        for (blocker, blocked) in [(alice, bob), (bob, alice)] {
            _ = try await fixture.relations.block(blocked.id, by: blocker.id)
            let notFound = TwitterError.notFound("List \(list.id)")
            await #expect(throws: notFound) {
                try await fixture.lists.updateList(list.id, ListPatch(name: "mine"), by: bob.id)
            }
            await #expect(throws: notFound) { try await fixture.lists.addMember(bob.id, to: list.id, by: bob.id) }
            await #expect(throws: notFound) {
                try await fixture.lists.removeMember(carol.id, from: list.id, by: bob.id)
            }
            await #expect(throws: notFound) { try await fixture.lists.deleteList(list.id, by: bob.id) }
            _ = try await fixture.relations.unblock(blocked.id, by: blocker.id)
        }
        // Without a block, someone else's public list is there, and is not theirs to change.
        await #expect {
            try await fixture.lists.updateList(list.id, ListPatch(name: "mine"), by: bob.id)
        } throws: {
            ($0 as? TwitterError)?.kind == .forbidden
        }
        #expect(try await fixture.lists.list(id: list.id)?.name == "public")
        #expect(try await fixture.lists.memberIDs(of: list.id) == [carol.id])
    }

    @Test(arguments: StoreBackend.all) func aSuspendedMemberLeavesMembersCountUntilTheSuspensionIsLifted(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let list = try await fixture.lists.createList(ListDraft(name: "people"), by: alice.id)
        let other = try await fixture.lists.createList(ListDraft(name: "more"), by: bob.id)
        _ = try await fixture.lists.addMember(bob.id, to: list.id, by: alice.id)
        _ = try await fixture.lists.addMember(carol.id, to: list.id, by: alice.id)
        _ = try await fixture.lists.addMember(carol.id, to: other.id, by: bob.id)
        #expect(try await fixture.moderation.suspend(carol.id, reason: "spam", at: Date()))
        #expect(try await fixture.lists.list(id: list.id)?.membersCount == 1)
        #expect(try await fixture.lists.list(id: other.id)?.membersCount == 0)
        let page = try await fixture.lists.members(of: list.id, page: PageRequest(limit: 40))
        #expect(page.users.map(\.username) == ["bob"])
        #expect(try await fixture.lists.lists(ownedBy: alice.id, includingPrivate: false).map(\.membersCount) == [1])
        #expect(try await fixture.moderation.unsuspend(carol.id))
        #expect(try await fixture.lists.list(id: list.id)?.membersCount == 2, "exactly back")
        #expect(try await fixture.lists.list(id: other.id)?.membersCount == 1)
        // Deleting a suspended member leaves the counts where the suspension put them.
        #expect(try await fixture.moderation.suspend(carol.id, reason: "spam", at: Date()))
        try await fixture.accounts.deleteAccount(carol.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await fixture.lists.list(id: list.id)?.membersCount == 1)
        #expect(try await fixture.lists.list(id: other.id)?.membersCount == 0)
    }
}
