import Testing
import TwitterCore
import TwitterRules

/// Who may write to a conversation, who is told, who may read, delete and leave, decided on made-up facts.
struct MessageRuleTests {
    let alice = MessageRule.Sender(account: MessageAccount(id: 1, username: "alice"), isSuspended: false)

    func bob(
        from setting: MessagesFrom = .following, follows: Bool = true, blocked: Bool = false,
        suspended: Bool = false, wrote: Bool = false, left: Bool = false
    ) -> MessageRule.Recipient {
        MessageRule.Recipient(
            account: MessageAccount(id: 2, username: "bob"), isSuspended: suspended, messagesFrom: setting,
            followsSender: follows, isBlockedEitherWay: blocked, hasWrittenHere: wrote, hasLeft: left)
    }

    @Test func aFirstMessageMakesTheConversationAndTellsBothMembers() throws {
        let plan = try MessageRule.send(from: alice, to: .members(existing: nil, named: [bob()])).get()
        #expect(plan == .init(createsConversation: true, rejoining: [], recipientIDs: [1, 2]))
    }

    @Test func anOutsiderIsToldTheConversationDoesNotExist() {
        #expect(MessageRule.send(from: alice, to: .outside).failure?.kind == .notFound)
        #expect(MessageRule.memberRefusal(isMember: false)?.kind == .notFound)
        #expect(MessageRule.memberRefusal(isMember: true) == nil)
    }

    @Test(arguments: [
        (MessagesFrom.nobody, true, false, false),
        (MessagesFrom.following, false, false, false),
        (MessagesFrom.following, true, false, true),
        (MessagesFrom.everyone, false, false, true),
        (MessagesFrom.nobody, false, true, true),
    ])
    func theRecipientsSettingDecidesUnlessItWroteHereItself(
        setting: MessagesFrom, follows: Bool, wrote: Bool, allowed: Bool
    ) {
        let outcome = MessageRule.send(
            from: alice, to: .conversation(id: 7, others: [bob(from: setting, follows: follows, wrote: wrote)]))
        if allowed {
            #expect(outcome.failure == nil)
        } else {
            #expect(outcome.failure?.kind == .forbidden)
            #expect(outcome.failure?.details["username"] == .string("bob"))
        }
    }

    @Test func aBlockEitherWayRefusesNamingTheAccountWhateverItsSetting() {
        let outcome = MessageRule.send(
            from: alice, to: .members(existing: 3, named: [bob(from: .everyone, blocked: true, wrote: true)]))
        #expect(outcome.failure?.kind == .forbidden)
        #expect(outcome.failure?.message.contains("@bob") == true)
    }

    @Test func suspendedAccountsNeitherSendNorReceive() {
        let suspended = MessageRule.Sender(account: alice.account, isSuspended: true)
        #expect(
            MessageRule.send(from: suspended, to: .members(existing: nil, named: [bob()])).failure?.kind == .forbidden)
        let outcome = MessageRule.send(from: alice, to: .members(existing: nil, named: [bob(suspended: true)]))
        #expect(outcome.failure?.details["username"] == .string("bob"))
    }

    @Test func namingALeaverAgainBringsItBack() throws {
        let plan = try MessageRule.send(from: alice, to: .members(existing: 3, named: [bob(left: true)])).get()
        #expect(plan.rejoining == [2] && !plan.createsConversation && plan.recipientIDs == [1, 2])
    }

    @Test func onlyTheSenderDeletesAndADeletionLeavesAPlaceholder() throws {
        #expect(try MessageRule.delete(messageSenderID: 1, isDeleted: false, by: 1).get() == .placeholder)
        #expect(try MessageRule.delete(messageSenderID: 1, isDeleted: true, by: 1).get() == .nothing)
        #expect(MessageRule.delete(messageSenderID: 1, isDeleted: false, by: 2).failure?.kind == .notFound)
        #expect(MessageRule.delete(messageSenderID: nil, isDeleted: false, by: 2).failure?.kind == .notFound)
    }

    @Test func theMembersKeyIgnoresOrderAndRepeats() {
        #expect(MessageRule.membersKey([3, 1, 3, 2]) == "1,2,3")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
