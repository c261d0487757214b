import Foundation
import Testing
import TwitterCore
import TwitterRules

/// The decisions of lists, on facts made up here: who may change one, who may be added, the cap and the counter.
struct ListRuleTests {
    static let owner: Int64 = 1
    static let other: Int64 = 2
    static let member: Int64 = 3

    static func facts(isPrivate: Bool = false, count: Int = 0) -> ListRule.Facts {
        ListRule.Facts(ownerID: owner, isPrivate: isPrivate, membersCount: count)
    }

    @Test func anAddCountsOneAndTellsOnlyTheListsStreams() throws {
        let plan = try ListRule.add(
            Self.member, to: 9, facts: Self.facts(count: 3), by: Self.owner, isMember: false, blockBetween: false)
        #expect(
            plan == ListRule.Plan(changesRow: true, countDelta: 1, events: [.relation(.listed(listID: 9, memberID: 3))])
        )
        #expect(TimelineFilter.mayConcern(plan.events[0]), "list streams follow membership")
        #expect(!plan.events.contains { if case .account(.notified) = $0 { true } else { false } }, "nobody is told")
        let again = try ListRule.add(
            Self.member, to: 9, facts: Self.facts(count: 4), by: Self.owner, isMember: true, blockBetween: false)
        #expect(again == ListRule.Plan(changesRow: false, countDelta: 0, events: []), "adding again changes nothing")
    }

    @Test func aRemovalCountsOneLessAndOfANonMemberNothing() throws {
        let plan = try ListRule.remove(
            Self.member, from: 9, facts: Self.facts(count: 1), by: Self.owner, isMember: true)
        #expect(
            plan
                == ListRule.Plan(
                    changesRow: true, countDelta: -1, events: [.relation(.unlisted(listID: 9, memberID: 3))]))
        let none = try ListRule.remove(Self.member, from: 9, facts: Self.facts(), by: Self.owner, isMember: false)
        #expect(none == ListRule.Plan(changesRow: false, countDelta: 0, events: []))
    }

    @Test(arguments: [(false, TwitterError.Kind.forbidden), (true, .notFound)])
    func onlyTheOwnerChangesAListAndAPrivateOneIsNotThereForOthers(isPrivate: Bool, kind: TwitterError.Kind) {
        let facts = Self.facts(isPrivate: isPrivate)
        #expect(throws: TwitterError.self) {
            try ListRule.add(Self.member, to: 9, facts: facts, by: Self.other, isMember: false, blockBetween: false)
        }
        for attempt in [
            { _ = try ListRule.requireOwner(9, facts: facts, actor: Self.other) },
            { _ = try ListRule.remove(Self.member, from: 9, facts: facts, by: Self.other, isMember: true) },
        ] as [() throws -> Void] {
            #expect { try attempt() } throws: { ($0 as? TwitterError)?.kind == kind }
        }
        #expect(throws: Never.self) { try ListRule.requireOwner(9, facts: facts, actor: Self.owner) }
        #expect { try ListRule.requireOwner(9, facts: nil, actor: Self.owner) } throws: {
            ($0 as? TwitterError)?.kind == .notFound
        }
    }

    @Test func aBlockBetweenTheMemberAndTheOwnerRefusesTheAdd() {
        #expect {
            try ListRule.add(
                Self.member, to: 9, facts: Self.facts(), by: Self.owner, isMember: false, blockBetween: true)
        } throws: {
            ($0 as? TwitterError)?.kind == .forbidden
        }
    }

    @Test func theFiveHundredAndFirstMemberIsRefusedClearly() throws {
        let full = Self.facts(count: ListRule.maximumMembers)
        #expect {
            try ListRule.add(Self.member, to: 9, facts: full, by: Self.owner, isMember: false, blockBetween: false)
        } throws: {
            let error = $0 as? TwitterError
            return error?.kind == .conflict && error?.message.contains("at most 500 members") == true
                && error?.details["maximum"] == .int(500)
        }
        let last = try ListRule.add(
            Self.member, to: 9, facts: Self.facts(count: 499), by: Self.owner, isMember: false, blockBetween: false)
        #expect(last.countDelta == 1, "the 500th is taken")
        #expect(
            try ListRule.add(Self.member, to: 9, facts: full, by: Self.owner, isMember: true, blockBetween: false)
                .countDelta == 0, "a member again at the cap changes nothing")
    }

    @Test func aBlockEndsTheMembershipsBothWaysAndADeletionEndsEveryOne() {
        let ended = ListRule.membershipsEndedByBlock(blocker: Self.member, blocked: Self.owner)
        #expect(
            ended.map(\.ownerID) == [Self.owner, Self.member] && ended.map(\.memberID) == [Self.member, Self.owner])
        #expect(
            ListRule.deletionEvents(of: 9, memberIDs: [5, 3])
                == [.relation(.unlisted(listID: 9, memberID: 3)), .relation(.unlisted(listID: 9, memberID: 5))])
    }

    @Test func onlyAChangeOfPrivacyIsReportedToTheStreams() {
        let facts = Self.facts(isPrivate: false)
        #expect(
            ListRule.updateEvents(9, facts: facts, patch: ListPatch(isPrivate: true))
                == [.relation(.listPrivacyChanged(listID: 9, ownerID: Self.owner, isPrivate: true))])
        #expect(ListRule.updateEvents(9, facts: facts, patch: ListPatch(name: "x", isPrivate: false)).isEmpty)
        var filter = TimelineFilter(.list(9), following: [])
        let ours = filter.admits(.relation(.listPrivacyChanged(listID: 9, ownerID: Self.owner, isPrivate: true)))
        let another = filter.admits(.relation(.listPrivacyChanged(listID: 8, ownerID: Self.owner, isPrivate: true)))
        #expect(ours && !another, "this list's change goes on to the forwarder, another's not")
    }

    @Test func aListStreamFollowsItsMembership() {
        var filter = TimelineFilter(.list(9), following: [Self.member])
        let tweet = { (author: Int64) in
            Tweet(
                id: author * 10, author: Tweet.Author(id: author, username: "u\(author)"), text: "t",
                createdAt: Date(timeIntervalSince1970: 0))
        }
        var admitted: [Bool] = []
        for event in [
            CommitEvent.tweet(.posted(tweet(Self.member))), .tweet(.posted(tweet(Self.other))),
            .relation(.listed(listID: 8, memberID: Self.other)),
            .tweet(.posted(tweet(Self.other))), .relation(.listed(listID: 9, memberID: Self.other)),
            .tweet(.posted(tweet(Self.other))),
            .relation(.unlisted(listID: 9, memberID: Self.member)), .tweet(.posted(tweet(Self.member))),
            .tweet(.posted(tweet(Self.owner))),
        ] {
            admitted.append(filter.admits(event))
        }
        // A member's; not another's; another list's membership changes nothing; this list's adds, then takes
        // off; the owner is no member of its own list by itself.
        #expect(admitted == [true, false, false, false, false, true, false, false, false])
    }
}

/// The list fields' rules: -32602 naming the field.
struct ListRulesTests {
    @Test(arguments: [
        ("", "x", "name"), (String(repeating: "n", count: 26), "", "name"),
        ("ok", String(repeating: "d", count: 101), "description"), ("two\nlines", "", "name"),
        ("ok", "tab\there", "description"),
    ])
    func badFieldsAreNamed(name: String, description: String, field: String) {
        let draft = ListRules.normalize(ListDraft(name: name, description: description))
        #expect(ListRules.draft.failures(for: draft).map(\.field) == [field])
    }

    @Test func goodFieldsPassAndAnAbsentOneIsLeftAlone() {
        #expect(ListRules.draft.accepts(ListRules.normalize(ListDraft(name: String(repeating: "n", count: 25)))))
        #expect(ListRules.draft.accepts(ListDraft(name: "n", description: String(repeating: "d", count: 100))))
        #expect(ListRules.patch.accepts(ListPatch(isPrivate: true)))
        #expect(ListRules.patch.failures(for: ListPatch(name: "")).map(\.field) == ["name"])
        #expect(ListRules.normalize(ListDraft(name: "  padded  ")).name == "padded")
    }
}
