import Foundation
import Logging
import Synchronization
import TestSupport
import Testing
import TwitterCore
import TwitterPostgres

/// Two stores on one PostgreSQL database, as two daemons on two hosts would have: each learns of the other's
/// commits, in commit order, exactly once.
@Suite struct SharedDatabaseTests {
    let quiet = Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func eachDaemonSeesTheOthersCommitsInOrderAndOnce() async throws {
        let url = try TestPostgres.freshDatabase()
        let first = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let second = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let firstEvents = StreamingRecorder()
        let secondEvents = StreamingRecorder()
        let a = first.stores(observer: firstEvents)
        let b = second.stores(observer: secondEvents)
        let alice = try await a.users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let bob = try await b.users.createUser(email: "bob@example.com", username: "bob", passwordHash: nil)

        // Posts from both sides at once: each side must see all of them, in id order, once each.
        let posted = try await withThrowingTaskGroup(of: Tweet.self) { group in
            for index in 0..<20 {
                let (stores, author) = index.isMultiple(of: 2) ? (a, alice) : (b, bob)
                group.addTask { try await stores.tweets.post(PostDraft(text: "post \(index)", by: author.id)) }
            }
            return try await group.reduce(into: [Tweet]()) { $0.append($1) }
        }
        let ids = posted.map(\.id).sorted()
        for recorder in [firstEvents, secondEvents] {
            let seen = try await recorder.postedIDs(count: ids.count)
            #expect(seen == ids)
        }
        // A follow on one side is an event on the other.
        _ = try await b.follows.follow(alice.id, by: bob.id)
        let followed = try await firstEvents.first { event in
            if case .relation(.followed(let follower, let followee)) = event {
                follower == bob.id && followee == alice.id
            } else {
                false
            }
        }
        #expect(followed)
        await first.close()
        await second.close()
    }

    @Test func aDaemonThatMissedNotificationsCatchesUpFromTheLog() async throws {
        let url = try TestPostgres.freshDatabase()
        let writer = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let stores = writer.stores(observer: StreamingRecorder())
        let alice = try await stores.users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        _ = try await stores.tweets.post(PostDraft(text: "before", by: alice.id))
        // The reader opens after that post: it starts at the log's end and must not replay it.
        let reader = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let readerEvents = StreamingRecorder()
        _ = reader.stores(observer: readerEvents)
        // An entry written with no notification, as one committed while the reader's listener was reconnecting:
        // only the catch-up poll can deliver it.
        try TestPostgres.runSQL(
            """
            INSERT INTO commit_events (origin, events)
            VALUES ('elsewhere', '[{"followed":{"followerID":\(alice.id),"followeeID":42}}]')
            """, in: url)
        let first = try await readerEvents.next()
        #expect(first == .relation(.followed(followerID: alice.id, followeeID: 42)))
        await writer.close()
        await reader.close()
    }

    /// Two daemons' stores on one fresh database, both current, the events the second applies seen in
    /// `secondEvents`.
    func twoCurrentDaemons() async throws -> (
        first: PostgresStore, second: PostgresStore, a: StoreSet, b: StoreSet, secondEvents: SeenEvents
    ) {
        let url = try TestPostgres.freshDatabase()
        let first = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let second = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let a = first.stores(observer: SeenEvents())
        let secondEvents = SeenEvents()
        let b = second.stores(observer: secondEvents)
        try await waitUntilCurrent(a)
        try await waitUntilCurrent(b)
        return (first, second, a, b, secondEvents)
    }

    /// Waits until `stores` is current (`OtherDaemons.isCurrent`: its lease renewed by a heartbeat, every notified
    /// entry delivered); fails after 10 s.
    func waitUntilCurrent(_ stores: StoreSet) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !stores.otherDaemons.isCurrent {
            guard ContinuousClock.now < deadline else {
                Issue.record("not current within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Before, a revocation was answered once its log entry was written, and the other daemon learnt of it on a
    /// notification that came some time later. Now it is answered once every daemon holding a lease has applied
    /// it: when the write that logs it returns (here an unlink, which logs its uid's revocation even when there was
    /// no link), the other daemon's observer has it.
    @Test func aRevocationIsAnsweredOnlyOnceTheOtherCurrentDaemonHasAppliedIt() async throws {
        let (first, second, a, _, secondEvents) = try await twoCurrentDaemons()
        for uid in UInt32(1)...5 {
            _ = try await a.peerLinks.unlinkPeer(uid: uid, userID: 7)
            let revocation = Revocation.peerLink(uid: uid, userID: 7)
            #expect(secondEvents.contains(.account(.revoked(revocation))), "revocation \(uid)")
        }
        await first.close()
        await second.close()
    }

    /// An account going off the web withdraws what the other daemon's web pages show (its read model keeps the set
    /// of the accounts off the web from these events): the write is answered once the other daemon has it. Coming
    /// back withdraws nothing, and reaches it through the log too.
    @Test func anAccountGoingOffTheWebIsAnsweredOnlyOnceTheOtherDaemonHasIt() async throws {
        let (first, second, a, b, secondEvents) = try await twoCurrentDaemons()
        let alice = try await a.users.createUser(email: "a@example.com", username: "alice", passwordHash: nil)
        try await a.profiles.setWebVisible(false, userID: alice.id)
        let off = AccountEvent.webVisibilityChanged(userID: alice.id, visible: false)
        #expect(off.withdrawsAccess)
        #expect(secondEvents.contains(.account(off)), "applied by the other daemon before the answer")
        #expect(try await b.profiles.webHiddenUsers() == [alice.id])
        try await a.profiles.setWebVisible(true, userID: alice.id)
        let on = CommitEvent.account(.webVisibilityChanged(userID: alice.id, visible: true))
        let deadline = ContinuousClock.now + .seconds(10)
        while !secondEvents.contains(on), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(secondEvents.contains(on), "through the log, in its own time")
        await first.close()
        await second.close()
    }

    /// A daemon seen lately that does not acknowledge (stuck, or cut off from the database) holds the answer back
    /// for a lease at most: by then its own lease has run out, and it reads the log before serving.
    @Test func aDaemonThatDoesNotAcknowledgeHoldsTheAnswerBackForALeaseAtMost() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let stores = store.stores(observer: SeenEvents())
        try TestPostgres.runSQL("INSERT INTO daemons (origin, seen_at, applied) VALUES ('stuck', now(), 0)", in: url)
        _ = try await stores.peerLinks.unlinkPeer(uid: 1, userID: 7)
        // Answered only once the stuck daemon's last heartbeat is a lease old (on the database's clock).
        try TestPostgres.runSQL(
            """
            DO $$ BEGIN
                IF (SELECT now() - seen_at FROM daemons WHERE origin = 'stuck') < interval '1.5 seconds' THEN
                    RAISE EXCEPTION 'answered before the stuck daemon''s lease ran out';
                END IF;
            END $$
            """, in: url)
        await store.close()
    }

    /// Catch-ups are coalesced (`CommitFeed.catchUp`): whether a caller reads the log itself or returns on a
    /// catch-up that began after it asked, what was committed before it asked is delivered when it returns.
    @Test func everyCatchUpDeliversWhatWasCommittedBeforeItWasAskedForCoalescedOrNot() async throws {
        let url = try TestPostgres.freshDatabase()
        let reader = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let seen = SeenEvents()
        let stores = reader.stores(observer: seen)
        for round in Int64(1)...5 {
            // Written with no notification: only a catch-up (or the poll) delivers it.
            try TestPostgres.runSQL(
                """
                INSERT INTO commit_events (origin, events)
                VALUES ('elsewhere', '[{"followed":{"followerID":\(round),"followeeID":42}}]')
                """, in: url)
            let expected = CommitEvent.relation(.followed(followerID: round, followeeID: 42))
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await stores.otherDaemons.catchUp()
                        return seen.contains(expected)
                    }
                }
                for try await delivered in group { #expect(delivered, "round \(round)") }
            }
        }
        #expect(seen.count == 5, "each entry once")
        await reader.close()
    }
}

/// The events delivered so far.
final class SeenEvents: CommitObserving {
    private let events = Mutex<[CommitEvent]>([])

    func committed(_ events: [CommitEvent]) { self.events.withLock { $0 += events } }
    func contains(_ event: CommitEvent) -> Bool { events.withLock { $0.contains(event) } }
    var count: Int { events.withLock { $0.count } }
}

/// Records events as they arrive and lets a test wait for them.
final class StreamingRecorder: CommitObserving {
    private let stream: AsyncStream<CommitEvent>
    private let continuation: AsyncStream<CommitEvent>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func committed(_ events: [CommitEvent]) {
        for event in events { continuation.yield(event) }
    }

    /// The ids of the next `count` posted tweets, in the order they arrived; fails after 10 s without them.
    func postedIDs(count: Int) async throws -> [Int64] {
        try await within(.seconds(10)) { [stream] in
            var ids: [Int64] = []
            for await event in stream {
                if case .tweet(.posted(let tweet)) = event { ids.append(tweet.id) }
                if ids.count == count { break }
            }
            return ids
        }
    }

    /// The next event; fails after 10 s without one.
    func next() async throws -> CommitEvent {
        let event = try await within(.seconds(10)) { [stream] in
            for await event in stream { return Optional(event) }
            return nil
        }
        guard let event else { throw TestPostgresError.timedOut }
        return event
    }

    /// Whether an event matching `predicate` arrives within 10 s.
    func first(where predicate: @escaping @Sendable (CommitEvent) -> Bool) async throws -> Bool {
        try await within(.seconds(10)) { [stream] in
            for await event in stream where predicate(event) { return true }
            return false
        }
    }

    private func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw TestPostgresError.timedOut
            }
            return value
        }
    }
}

extension TestPostgresError {
    static let timedOut = TestPostgresError("no event within the time limit")
}

/// Direct messages between two daemons on one database: a message sent through one arrives, live, through
/// the other, in commit order, once each, marked as another daemon's.
@Suite struct SharedDatabaseMessageTests {
    let quiet = Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Every message a store reports among its commits, as a stream, with whether another daemon sent it.
    final class MessageStream: CommitObserving {
        let messages: AsyncStream<(StoredMessage, Bool)>
        private let continuation: AsyncStream<(StoredMessage, Bool)>.Continuation

        init() {
            (messages, continuation) = AsyncStream.makeStream()
        }

        func committed(_ events: [CommitEvent]) { yield(events, elsewhere: false) }

        func committedElsewhere(_ events: [CommitEvent]) { yield(events, elsewhere: true) }

        private func yield(_ events: [CommitEvent], elsewhere: Bool) {
            for case .message(.sent(let message, _)) in events { continuation.yield((message, elsewhere)) }
        }
    }

    @Test func aMessageSentThroughOneDaemonArrivesThroughTheOtherInOrderOnce() async throws {
        let url = try TestPostgres.freshDatabase()
        let first = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let second = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let there = MessageStream()
        let a = first.stores(observer: MessageStream())
        let b = second.stores(observer: there)
        let alice = try await a.users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let bob = try await b.users.createUser(email: "bob@example.com", username: "bob", passwordHash: nil)
        try await b.messages.setMessagesFrom(.everyone, of: bob.id)
        var sent: [Int64] = []
        for index in 0..<5 {
            let draft = MessageDraft(
                destination: .members([bob.id]), seal: { _ in Array("m\(index)".utf8) }, senderID: alice.id,
                idempotencyKey: nil)
            sent.append(try await a.messages.send(draft).id)
        }
        // bob answers through his own daemon: it comes after alice's five there, and is marked as its own.
        let answer = try await b.messages.send(
            MessageDraft(
                destination: .members([alice.id]), seal: { _ in Array("ok".utf8) }, senderID: bob.id,
                idempotencyKey: nil))
        var received: [(Int64, Bool)] = []
        for await (message, elsewhere) in there.messages {
            received.append((message.id, elsewhere))
            if message.id == answer.id { break }
        }
        #expect(received.map(\.0) == sent + [answer.id], "in commit order, each once")
        #expect(received.map(\.1) == Array(repeating: true, count: 5) + [false])
        await first.close()
        await second.close()
    }
}
