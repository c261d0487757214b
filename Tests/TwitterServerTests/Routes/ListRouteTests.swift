import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `lists.*`, `timeline.list` and list subscriptions: every refusal tried from the refused side.
struct ListRouteTests: RouteTesting {
    static let routes = [
        API.Lists.create.name, API.Lists.update.name, API.Lists.delete.name, API.Lists.add.name,
        API.Lists.remove.name, API.Lists.get.name, API.Lists.mine.name, API.Lists.of.name, API.Lists.members.name,
        API.Timelines.list.name,
    ]

    @Test func anOwnerMakesChangesFillsAndDeletesAList() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        let list = try await alice.call(API.Lists.create, .init(name: "  friends ", description: "close ones"))
        #expect(list.name == "friends" && list.description == "close ones" && !list.isPrivate)
        #expect(list.owner.username == "alice" && list.membersCount == 0)
        let raw = try await alice.call("lists.get", ["id": .number(JSONNumber(Int(list.id)))])
        #expect(raw["private"] == false && raw["membersCount"] == 0 && raw["owner"]?["username"] == "alice")

        #expect(try await alice.call(API.Lists.add, .init(id: list.id, username: "bob")).membersCount == 1)
        #expect(try await alice.call(API.Lists.add, .init(id: list.id, username: "carol")).membersCount == 2)
        #expect(try await alice.call(API.Lists.add, .init(id: list.id, username: "bob")).membersCount == 2, "again")
        let first = try await alice.call(API.Lists.members, .init(id: list.id, limit: 1))
        #expect(first.users.map(\.username) == ["carol"])
        let rest = try await alice.call(
            API.Lists.members, .init(id: list.id, limit: 1, cursor: try first.nextCursor.orThrow("a next page")))
        #expect(rest.users.map(\.username) == ["bob"])
        #expect(try await alice.call(API.Lists.remove, .init(id: list.id, username: "carol")).membersCount == 1)

        let updated = try await alice.call(API.Lists.update, .init(id: list.id, name: "pals", isPrivate: true))
        #expect(updated.name == "pals" && updated.description == "close ones" && updated.isPrivate)
        #expect(try await alice.call(API.Lists.mine).lists.map(\.name) == ["pals"])
        #expect(try await alice.call(API.Lists.of, .init(username: "alice")).lists.isEmpty, "public ones only")
        #expect(try await alice.call(API.Lists.delete, .init(id: list.id)) == .init(deleted: true))
        #expect(try await alice.refusal(API.Lists.get, .init(id: list.id)).code == -32004)
        #expect(try await alice.call(API.Lists.mine).lists.isEmpty)
        #expect(try await daemon.connect().refusal(API.Lists.mine).code == -32001)
    }

    @Test func badFieldsAreNamed() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let long = try await alice.refusal(API.Lists.create, .init(name: String(repeating: "n", count: 26)))
        #expect(long.code == -32602 && long.data["fields"]?["name"] == "Name is at most 25 characters")
        let empty = try await alice.refusal(API.Lists.create, .init(name: "  "))
        #expect(empty.code == -32602 && empty.data["fields"]?["name"] == "Name can not be empty")
        let description = try await alice.refusal(
            API.Lists.create, .init(name: "ok", description: String(repeating: "d", count: 101)))
        #expect(description.code == -32602 && description.data["fields"]?["description"] != nil)
        let list = try await alice.call(API.Lists.create, .init(name: "ok"))
        let line = try await alice.refusal(API.Lists.update, .init(id: list.id, name: "two\nlines"))
        #expect(line.code == -32602 && line.data["fields"]?["name"] != nil)
        #expect(try await alice.refusal("lists.create", ["name": 5]).code == -32602)
        #expect(try await alice.refusal(API.Lists.members, .init(id: list.id, limit: 201)).code == -32602)
        #expect(try await alice.refusal(API.Timelines.list, .init(id: list.id, limit: 0)).code == -32602)
    }

    @Test func onlyTheOwnerChangesAList() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let mallory = try await daemon.signUp("mallory")
        _ = try await daemon.signUp("bob")
        let list = try await alice.call(API.Lists.create, .init(name: "public"))
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "bob"))
        #expect(try await mallory.refusal(API.Lists.update, .init(id: list.id, name: "mine")).code == -32003)
        #expect(try await mallory.refusal(API.Lists.add, .init(id: list.id, username: "mallory")).code == -32003)
        #expect(try await mallory.refusal(API.Lists.remove, .init(id: list.id, username: "bob")).code == -32003)
        #expect(try await mallory.refusal(API.Lists.delete, .init(id: list.id)).code == -32003)
        let unchanged = try await alice.call(API.Lists.get, .init(id: list.id))
        #expect(unchanged.name == "public" && unchanged.membersCount == 1, "a refusal changes nothing")
        #expect(try await alice.refusal(API.Lists.add, .init(id: list.id, username: "nobody")).code == -32004)
        #expect(try await alice.refusal(API.Lists.add, .init(id: list.id + 100, username: "bob")).code == -32004)
    }

    @Test func aPrivateListIsNotThereForAnyoneButItsOwner() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let mallory = try await daemon.signUp("mallory")
        let bob = try await daemon.signUp("bob")
        let secret = try await alice.call(API.Lists.create, .init(name: "secret", isPrivate: true))
        let open = try await alice.call(API.Lists.create, .init(name: "open"))
        _ = try await alice.call(API.Lists.add, .init(id: secret.id, username: "bob"))
        _ = try await bob.call(API.Tweets.post, .init(text: "bob's"))

        // The owner sees it everywhere.
        #expect(try await alice.call(API.Lists.get, .init(id: secret.id)).isPrivate)
        #expect(try await alice.call(API.Lists.members, .init(id: secret.id)).users.map(\.username) == ["bob"])
        #expect(try await alice.call(API.Timelines.list, .init(id: secret.id)).tweets.map(\.text) == ["bob's"])
        _ = try await alice.call(API.Timelines.subscribe, .init(timeline: "list", listId: secret.id))

        // Another account, even a member, cannot tell it from a list that does not exist.
        for reader in [mallory, bob] {
            for refusal in [
                try await reader.refusal(API.Lists.get, .init(id: secret.id)),
                try await reader.refusal(API.Lists.members, .init(id: secret.id)),
                try await reader.refusal(API.Timelines.list, .init(id: secret.id)),
                try await reader.refusal(API.Timelines.subscribe, .init(timeline: "list", listId: secret.id)),
                try await reader.refusal(API.Lists.update, .init(id: secret.id, name: "x")),
                try await reader.refusal(API.Lists.add, .init(id: secret.id, username: "mallory")),
                try await reader.refusal(API.Lists.delete, .init(id: secret.id)),
            ] {
                #expect(refusal.code == -32004)
                #expect(refusal.message == "List \(secret.id) not found", "the same words as for no list")
            }
            #expect(try await reader.call(API.Lists.of, .init(username: "alice")).lists.map(\.id) == [open.id])
        }
        let none = try await mallory.refusal(API.Lists.get, .init(id: secret.id + 100))
        #expect(none.message == "List \(secret.id + 100) not found")
        #expect(try await mallory.call(API.Lists.get, .init(id: open.id)).name == "open")
        await alice.close()
    }

    @Test func someoneWhoBlocksTheOwnerIsNotAddedAndLeavesOnBlocking() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let list = try await alice.call(API.Lists.create, .init(name: "people"))
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        let refused = try await alice.refusal(API.Lists.add, .init(id: list.id, username: "bob"))
        #expect(refused.code == -32003)
        #expect(try await alice.call(API.Lists.get, .init(id: list.id)).membersCount == 0)

        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "carol"))
        _ = try await carol.call(API.Users.block, .init(username: "alice"))
        #expect(try await alice.call(API.Lists.get, .init(id: list.id)).membersCount == 0, "the block ended it")
        #expect(try await alice.call(API.Lists.members, .init(id: list.id)).users.isEmpty)
        // Across the block, the blocker does not see the owner's lists either.
        #expect(try await carol.refusal(API.Lists.get, .init(id: list.id)).code == -32004)
        #expect(try await carol.call(API.Lists.of, .init(username: "alice")).lists.isEmpty)
    }

    /// Issue #48, item 8: blocked by the owner, an account got -32003 renaming the owner's public list and
    /// -32004 for a missing one, so it learnt which ids were the blocker's lists. Across a block either way, every
    /// method naming the list answers as for no list, word for word; an add of the blocker stays -32003.
    @Test(arguments: [true, false])
    func acrossABlockEveryMethodNamingTheOwnersListAnswersAsForNoList(ownerBlocks: Bool) async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        let list = try await alice.call(API.Lists.create, .init(name: "public"))
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "carol"))
        if ownerBlocks {
            _ = try await alice.call(API.Users.block, .init(username: "bob"))
        } else {
            _ = try await bob.call(API.Users.block, .init(username: "alice"))
        }
        let missing = list.id + 100
        let attempts: [(String, (Int64) async throws -> RPCError)] = [
            ("get", { try await bob.refusal(API.Lists.get, .init(id: $0)) }),
            ("members", { try await bob.refusal(API.Lists.members, .init(id: $0)) }),
            ("timeline", { try await bob.refusal(API.Timelines.list, .init(id: $0)) }),
            ("subscribe", { try await bob.refusal(API.Timelines.subscribe, .init(timeline: "list", listId: $0)) }),
            ("update", { try await bob.refusal(API.Lists.update, .init(id: $0, name: "mine")) }),
            ("add", { try await bob.refusal(API.Lists.add, .init(id: $0, username: "bob")) }),
            ("remove", { try await bob.refusal(API.Lists.remove, .init(id: $0, username: "carol")) }),
            ("delete", { try await bob.refusal(API.Lists.delete, .init(id: $0)) }),
        ]
        for (name, attempt) in attempts {
            let refused = try await attempt(list.id)
            let absent = try await attempt(missing)
            #expect(refused.code == -32004, "\(name): \(refused)")
            #expect(refused.message == "List \(list.id) not found", "\(name)")
            #expect(absent.message == "List \(missing) not found" && refused.data == absent.data, "\(name)")
        }
        let unchanged = try await alice.call(API.Lists.get, .init(id: list.id))
        #expect(unchanged.name == "public" && unchanged.membersCount == 1, "a refusal changes nothing")
        // The owner adding the account across the block names an account, whose name is public: -32003.
        #expect(try await alice.refusal(API.Lists.add, .init(id: list.id, username: "bob")).code == -32003)
        // A follow across a block stays -32003 too.
        #expect(try await bob.refusal(API.Users.follow, .init(username: "alice")).code == -32003)
    }

    /// Issue #48, item 9: `membersCount` counted suspended members, so its difference with `lists.members` told
    /// who was suspended. A suspension takes the member out of the count, and lifting it puts it back.
    @Test func aSuspendedMemberLeavesTheCountAsItLeavesTheMembers() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        let list = try await alice.call(API.Lists.create, .init(name: "people"))
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "bob"))
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "carol"))
        _ = try await admin.call(API.Admin.suspend, .init(username: "carol", reason: "spam"))
        for reader in [alice, bob] {
            let seen = try await reader.call(API.Lists.get, .init(id: list.id))
            let members = try await reader.call(API.Lists.members, .init(id: list.id)).users
            #expect(members.map(\.username) == ["bob"])
            #expect(seen.membersCount == members.count, "the count tells no more than the list")
            #expect(try await reader.call(API.Lists.of, .init(username: "alice")).lists.map(\.membersCount) == [1])
        }
        _ = try await admin.call(API.Admin.unsuspend, .init(username: "carol"))
        #expect(try await alice.call(API.Lists.get, .init(id: list.id)).membersCount == 2, "exactly back")
    }

    @Test func theFiveHundredAndFirstMemberIsRefused() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let list = try await alice.call(API.Lists.create, .init(name: "crowd"))
        let users = daemon.services.auth.users
        let aliceID = try await alice.call(API.Lists.get, .init(id: list.id)).owner.id
        for index in 0..<500 {
            let member = try await users.createUser(
                email: "m\(index)@example.com", username: "m\(index)", passwordHash: nil)
            _ = try await daemon.services.tweets.lists.addMember(member.id, to: list.id, by: aliceID)
        }
        _ = try await daemon.signUp("late")
        let full = try await alice.refusal(API.Lists.add, .init(id: list.id, username: "late"))
        #expect(full.code == -32005 && full.message.contains("at most 500 members"))
        #expect(try await alice.call(API.Lists.get, .init(id: list.id)).membersCount == 500)
        _ = try await alice.call(API.Lists.remove, .init(id: list.id, username: "m0"))
        #expect(try await alice.call(API.Lists.add, .init(id: list.id, username: "late")).membersCount == 500)
    }

    @Test func theListTimelineIsPagedAsHomeAndHidesWhatTheReaderDoesNotSee() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let dave = try await daemon.signUp("dave")
        let list = try await alice.call(API.Lists.create, .init(name: "news"))
        for name in ["bob", "carol", "dave"] {
            _ = try await alice.call(API.Lists.add, .init(id: list.id, username: name))
        }
        var posted: [Int64] = []
        for (author, text) in [(bob, "b1"), (carol, "c1"), (dave, "d1"), (bob, "b2"), (alice, "a1")] {
            posted.append(try await author.call(API.Tweets.post, .init(text: text)).id)
        }
        _ = try await carol.call(API.Tweets.repost, .init(id: posted[0]))
        let page = try await alice.call(API.Timelines.list, .init(id: list.id, limit: 3))
        #expect(page.tweets.map { $0.repostOf?.text ?? $0.text } == ["b1", "b2", "d1"], "each original once a page")
        let older = try await alice.call(API.Timelines.list, .init(id: list.id, maxId: page.oldestId, limit: 3))
        #expect(older.tweets.map(\.text) == ["c1", "b1"], "once a page, as home: b1 again below its repost")
        let newer = try await alice.call(API.Timelines.list, .init(id: list.id, sinceId: posted[3]))
        #expect(newer.tweets.count == 1 && newer.tweets[0].repostOf?.text == "b1")

        _ = try await alice.call(API.Users.mute, .init(username: "dave"))
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        let hidden = try await alice.call(API.Timelines.list, .init(id: list.id))
        #expect(hidden.tweets.map(\.text) == ["c1"], "muted, blocked and the block's repost gone")
        // Someone else reads the public list through their own eyes.
        _ = try await dave.call(API.Users.block, .init(username: "carol"))
        let davesView = try await dave.call(API.Timelines.list, .init(id: list.id))
        #expect(davesView.tweets.map(\.text) == ["d1"])
    }

    @Test func aListSubscriptionPushesMembersTweetsTheReaderMaySee() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let reader = try await daemon.signUp("reader")
        let list = try await alice.call(API.Lists.create, .init(name: "news"))
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "bob"))
        _ = try await reader.call(API.Timelines.subscribe, .init(timeline: "list", listId: list.id))
        _ = try await carol.call(API.Tweets.post, .init(text: "not a member"))
        _ = try await bob.call(API.Tweets.post, .init(text: "member"))
        let first = try #require(await reader.inbox.next())
        #expect(first["method"] == "tweets.new" && first["params"]?["tweet"]?["text"] == "member")

        // A member added later is streamed from then; one taken off no more.
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "carol"))
        _ = try await alice.call(API.Lists.remove, .init(id: list.id, username: "bob"))
        _ = try await bob.call(API.Tweets.post, .init(text: "left"))
        _ = try await carol.call(API.Tweets.post, .init(text: "joined"))
        let second = try #require(await reader.inbox.next())
        #expect(second["params"]?["tweet"]?["text"] == "joined")

        // A tweet hidden from the reader is not pushed: the muted member's goes, the next one arrives alone.
        _ = try await alice.call(API.Lists.add, .init(id: list.id, username: "bob"))
        _ = try await reader.call(API.Users.mute, .init(username: "carol"))
        _ = try await carol.call(API.Tweets.post, .init(text: "muted"))
        _ = try await bob.call(API.Tweets.post, .init(text: "seen"))
        let third = try #require(await reader.inbox.next())
        #expect(third["params"]?["tweet"]?["text"] == "seen")

        // Made private, the list streams nothing to the reader, until it is public again.
        _ = try await alice.call(API.Lists.update, .init(id: list.id, isPrivate: true))
        _ = try await bob.call(API.Tweets.post, .init(text: "while private"))
        _ = try await alice.call(API.Lists.update, .init(id: list.id, isPrivate: false))
        _ = try await bob.call(API.Tweets.post, .init(text: "public again"))
        let fourth = try #require(await reader.inbox.next())
        #expect(fourth["params"]?["tweet"]?["text"] == "public again")

        // From the refused side: while the owner blocks the reader, its public list streams nothing to it.
        _ = try await alice.call(API.Users.block, .init(username: "reader"))
        _ = try await bob.call(API.Tweets.post, .init(text: "while blocked"))
        _ = try await alice.call(API.Users.unblock, .init(username: "reader"))
        _ = try await bob.call(API.Tweets.post, .init(text: "unblocked"))
        let fifth = try #require(await reader.inbox.next())
        #expect(fifth["params"]?["tweet"]?["text"] == "unblocked")

        #expect(try await reader.refusal(API.Timelines.subscribe, .init(timeline: "list")).code == -32602)
        let missing = try await reader.refusal(API.Timelines.subscribe, .init(timeline: "list", listId: list.id + 9))
        #expect(missing.code == -32004)
        await reader.close()
    }

    @Test func anExportHoldsTheListsAndADeletionTakesThemAndEveryMembership() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        let alices = try await alice.call(API.Lists.create, .init(name: "mine", description: "d", isPrivate: true))
        _ = try await alice.call(API.Lists.add, .init(id: alices.id, username: "bob"))
        _ = try await alice.call(API.Lists.add, .init(id: alices.id, username: "carol"))
        let bobs = try await bob.call(API.Lists.create, .init(name: "bob's"))
        _ = try await bob.call(API.Lists.add, .init(id: bobs.id, username: "alice"))
        _ = try await bob.call(API.Lists.add, .init(id: bobs.id, username: "carol"))

        let archive = try await alice.call(API.Account.export, .init())
        #expect(archive.lists.map(\.name) == ["mine"] && archive.lists[0].isPrivate)
        #expect(archive.lists[0].members.map(\.username) == ["bob", "carol"])
        #expect(try await bob.call(API.Account.export, .init()).lists.map(\.name) == ["bob's"])
        var paged: [String] = []
        var cursor: String?
        repeat {
            let page = try await alice.call(API.Account.export, .init(cursor: cursor))
            paged += page.lists.map(\.name)
            cursor = page.next?.text
        } while cursor != nil
        #expect(paged == ["mine"])

        _ = try await alice.call(API.Account.delete, .init(password: InProcessDaemon.password))
        #expect(try await bob.refusal(API.Lists.get, .init(id: alices.id)).code == -32004)
        let left = try await bob.call(API.Lists.get, .init(id: bobs.id))
        #expect(left.membersCount == 1, "the count moves with the deleted member")
        #expect(try await bob.call(API.Lists.members, .init(id: bobs.id)).users.map(\.username) == ["carol"])
    }
}
