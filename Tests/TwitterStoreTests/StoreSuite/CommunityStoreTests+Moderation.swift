import Foundation
import Testing
import TwitterCore

/// Reports, the audit log and the admins' list of accounts.
extension CommunityStoreTests {
    @Test(arguments: StoreBackend.all) func reportsNotifyTheAdminsAndPageNewestFirst(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (admin, otherAdmin) = (try await fixture.user("admin"), try await fixture.user("root"))
        let (carol, bob) = (try await fixture.user("carol"), try await fixture.user("bob"))
        let offending = try await fixture.post("something rude", by: bob)
        let moment = Date(timeIntervalSince1970: 1_700_000_000)
        // The reporter is an admin too, and one admin is named twice: each other admin is told once.
        let reportID = try await fixture.moderation.createReport(
            by: carol.id, account: bob.id, tweet: offending.id, reason: "rude",
            notifying: [admin.id, otherAdmin.id, carol.id, admin.id], at: moment)
        for recipient in [admin, otherAdmin] {
            let told = try await fixture.notifications.notifications(of: recipient.id, NotificationQuery(), hiding: [])
            #expect(told.count == 1, "\(recipient.username)")
            #expect(told.first?.type == .adminReport)
            #expect(told.first?.reportID == reportID)
            #expect(told.first?.from.username == "carol")
            #expect(told.first?.tweet?.id == offending.id)
            #expect(try await fixture.notifications.unreadCount(of: recipient.id, hiding: []) == 1)
            #expect(
                fixture.commits.events.contains {
                    if case .account(.notified(let notification, recipient.id)) = $0 {
                        notification.reportID == reportID
                    } else {
                        false
                    }
                })
        }
        #expect(try await fixture.notifications.notifications(of: carol.id, NotificationQuery(), hiding: []).isEmpty)
        #expect(try await fixture.notifications.notifications(of: bob.id, NotificationQuery(), hiding: []).isEmpty)

        var ids = [reportID]
        for index in 1...4 {
            ids.append(
                try await fixture.moderation.createReport(
                    by: carol.id, account: bob.id, tweet: nil, reason: "again \(index)", notifying: [],
                    at: moment.addingTimeInterval(Double(index))))
        }
        let first = try await fixture.moderation.reports(status: nil, page: PageRequest(limit: 3))
        #expect(first.items.map(\.id) == Array(ids.reversed().prefix(3)))
        #expect(first.next == first.items.last?.id)
        let cursor: Int64 = try #require(first.next)
        let second = try await fixture.moderation.reports(status: nil, page: PageRequest(limit: 3, before: cursor))
        #expect(second.items.map(\.id) == [ids[1], ids[0]])
        #expect(second.next == nil)
        #expect(
            second.items.last
                == Report(
                    id: reportID, reporter: "carol", username: "bob", tweetID: offending.id, reason: "rude",
                    status: .open, createdAt: moment, note: nil))
        #expect(second.items.first?.tweetID == nil, "an account reported without a tweet")

        let resolved = try #require(
            try await fixture.moderation.resolveReport(ids[2], note: "warned", by: "admin", at: moment))
        #expect(resolved.status == .resolved)
        #expect(resolved.note == "warned")
        #expect(resolved.reason == "again 2")
        #expect(try await fixture.moderation.reports(status: .resolved, page: PageRequest()).items == [resolved])
        let open = try await fixture.moderation.reports(status: .open, page: PageRequest())
        #expect(open.items.map(\.id) == [ids[4], ids[3], ids[1], ids[0]])
        #expect(open.next == nil)
        #expect(try await fixture.moderation.resolveReport(999_999, note: nil, by: "admin", at: moment) == nil)
    }

    @Test(arguments: StoreBackend.all) func theAuditLogPagesNewestFirst(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        var recorded: [AuditEntry] = []
        for index in 0..<5 {
            let entry = AuditEntry(
                actor: "admin", action: "admin.users.suspend", target: "user\(index)",
                reason: index.isMultiple(of: 2) ? "spam \(index)" : nil,
                createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
            let stored = try await fixture.moderation.record(entry)
            #expect(stored.id > (recorded.last?.id ?? 0), "ids grow")
            var expected = entry
            expected.id = stored.id
            #expect(stored == expected)
            recorded.append(stored)
        }
        var read: [AuditEntry] = []
        var before: Int64?
        var pages = 0
        repeat {
            let page = try await fixture.moderation.auditEntries(page: PageRequest(limit: 2, before: before))
            #expect(page.items.count == 2 || page.next == nil)
            read += page.items
            before = page.next
            pages += 1
        } while before != nil && pages < 10
        #expect(pages == 3)
        #expect(read == recorded.reversed())
    }

    @Test(arguments: StoreBackend.all) func accountsAreFoundByPartOfTheirNameOrEmailAndStatus(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        var ids: [String: Int64] = [:]
        for (username, email) in [
            ("Alice", "alice@example.com"), ("bob", "bob@ALPS.example"), ("carol", "carol@example.com"),
            ("Malcolm", "m@example.com"), ("x_y", "xy@example.com"), ("xzy", "xzy@example.com"),
        ] {
            ids[username] = try await fixture.users.createUser(email: email, username: username, passwordHash: nil).id
        }
        func names(_ query: String?, _ status: AccountStatus? = nil, limit: Int = 40) async throws -> [String] {
            try await fixture.moderation.accounts(matching: query, status: status, page: PageRequest(limit: limit))
                .items.map(\.username)
        }
        #expect(try await names("AL") == ["Malcolm", "bob", "Alice"], "username or e-mail, any case, newest first")
        #expect(try await names("_") == ["x_y"], "LIKE's wildcards are matched as themselves")
        #expect(try await names("%") == [])
        #expect(try await names(nil).count == 6)
        #expect(try await names("").count == 6)

        let alice = try #require(ids["Alice"])
        #expect(try await fixture.moderation.suspend(alice, reason: "spam", at: Date()))
        #expect(try await names("al", .active) == ["Malcolm", "bob"])
        #expect(try await names("al", .suspended) == ["Alice"])
        let suspended = try #require(
            try await fixture.moderation.accounts(matching: nil, status: .suspended, page: PageRequest()).items.first)
        #expect(suspended.id == alice && suspended.email == "alice@example.com")
        #expect(suspended.status == .suspended && suspended.suspendedReason == "spam")
        #expect(try await fixture.moderation.account(named: "alice") == suspended)
        #expect(try await fixture.moderation.account(named: "nobody") == nil)
        let active = try #require(try await fixture.moderation.account(named: "BOB"))
        #expect(active.status == .active && active.suspendedReason == nil)

        // Paging walks every match once.
        var seen: [String] = []
        var before: Int64?
        repeat {
            let page = try await fixture.moderation.accounts(
                matching: "al", status: nil, page: PageRequest(limit: 2, before: before))
            seen += page.items.map(\.username)
            before = page.next
        } while before != nil && seen.count < 20
        #expect(seen == ["Malcolm", "bob", "Alice"])
    }
}
