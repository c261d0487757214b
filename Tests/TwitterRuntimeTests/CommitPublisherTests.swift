import Foundation
import Synchronization
import Testing
import TwitterCore
import TwitterRuntime

/// The stores publish commits; the read model subscribes. A writer only appends: the subscriber is told by one
/// delivery task off the writer's thread, always in commit order, and a reader waits for a version to be applied
/// instead of delivering.
struct CommitPublisherTests {
    /// Records what it is told, and whether it was told on the thread of the test's "writer" while it wrote:
    /// that would be a call from the writer's thread up into the subscriber.
    final class Subscriber: CommitObserving, @unchecked Sendable {
        // @unchecked: `writer` is set and cleared by the test's thread around its writes, read under `lock`.
        private let lock = NSLock()
        private var writer: pthread_t?
        let told = Mutex<[String]>([])
        let toldInsideTheWriter = Mutex(false)
        let delivered = AsyncStream<Void>.makeStream()

        func committed(_ events: [CommitEvent]) { record(events, elsewhere: false) }
        func committedElsewhere(_ events: [CommitEvent]) { record(events, elsewhere: true) }

        private func record(_ events: [CommitEvent], elsewhere: Bool) {
            lock.lock()
            if let writer, pthread_equal(writer, pthread_self()) != 0 { toldInsideTheWriter.withLock { $0 = true } }
            lock.unlock()
            told.withLock { $0 += events.map { "\(elsewhere ? "elsewhere" : "here") \(Self.id($0))" } }
            delivered.continuation.yield()
        }

        /// Runs `writes` as the writer.
        func asWriter(_ writes: () -> Void) {
            lock.withLock { writer = pthread_self() }
            writes()
            lock.withLock { writer = nil }
        }

        static func id(_ event: CommitEvent) -> Int64 {
            if case .tweet(.deleted(let id, _, _)) = event { id } else { -1 }
        }
    }

    static func deletion(_ id: Int64) -> CommitEvent { .tweet(.deleted(id: id, authorID: 1, repostOf: nil)) }

    /// Deliveries the test holds back, to run when it says.
    final class HeldDeliveries: Sendable {
        let held = Mutex<[@Sendable () -> Void]>([])
        func start(_ delivery: @escaping @Sendable () -> Void) { held.withLock { $0.append(delivery) } }
        func runAll() {
            for delivery in held.withLock({ held in
                defer { held = [] }
                return held
            }) { delivery() }
        }
    }

    @Test func aWriterOnlyAppendsAndAReaderWaitsForTheDeliveryOfEveryCommitInOrder() async {
        let deliveries = HeldDeliveries()
        let publisher = CommitPublisher(startDelivery: deliveries.start)
        let subscriber = Subscriber()
        publisher.subscribe(subscriber)
        subscriber.asWriter {
            for id in 1...3 { publisher.committed([Self.deletion(Int64(id))]) }
        }
        #expect(publisher.version == 3 && !publisher.isApplied)
        #expect(deliveries.held.withLock { $0.count } == 1, "one delivery task for the three commits")
        let reader = Task {
            await publisher.waitUntilApplied()
            return subscriber.told.withLock { $0 }
        }
        deliveries.runAll()
        #expect(await reader.value == ["here 1", "here 2", "here 3"], "the reader returned once all three were told")
        #expect(publisher.isApplied)
        #expect(!subscriber.toldInsideTheWriter.withLock { $0 }, "no commit was delivered on the writer's thread")
        // A reader asking for a version applied already returns at once; the next commit starts a new task.
        await publisher.waitUntilApplied(2)
        publisher.committed([Self.deletion(4)])
        #expect(deliveries.held.withLock { $0.count } == 1)
        deliveries.runAll()
        await publisher.waitUntilApplied(4)
        #expect(subscriber.told.withLock { $0 }.last == "here 4")
    }

    @Test func aCommitIsDeliveredWithoutAReader() async {
        let publisher = CommitPublisher()
        let subscriber = Subscriber()
        publisher.subscribe(subscriber)
        publisher.committed([Self.deletion(7)])
        var deliveries = subscriber.delivered.stream.makeAsyncIterator()
        _ = await deliveries.next()
        #expect(subscriber.told.withLock { $0 } == ["here 7"])
    }

    @Test func anotherDaemonsCommitIsDeliveredBeforeItReturnsBehindWhatWasPublishedBefore() {
        let publisher = CommitPublisher()
        let subscriber = Subscriber()
        publisher.subscribe(subscriber)
        subscriber.asWriter { publisher.committed([Self.deletion(1)]) }
        publisher.committedElsewhere([Self.deletion(2)])
        #expect(subscriber.told.withLock { $0 }.suffix(2) == ["here 1", "elsewhere 2"])
        #expect(publisher.isApplied)
    }

    @Test func whatIsPublishedBeforeTheSubscriberComesWaitsForIt() {
        let publisher = CommitPublisher()
        publisher.committed([Self.deletion(1)])
        publisher.committed([Self.deletion(2)])
        let subscriber = Subscriber()
        publisher.subscribe(subscriber)
        #expect(subscriber.told.withLock { $0 } == ["here 1", "here 2"])
    }
}
