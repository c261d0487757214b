import Synchronization
import TwitterCore

/// State per key (per reader, per account) loaded from the store on first use and then kept current by the
/// committed events of one subject (`Event`: a tweet's, a relation's), so later reads need no query: the one
/// mechanism behind the read model's per-reader layers.
///
/// A load races the commits that land while it reads: it is kept only if no event for its key was applied in
/// the meantime, otherwise it answers its own read and the next read loads again.
final class KeyedCommitCache<Event: Sendable, Value: Sendable>: Sendable {
    private struct State {
        var values: [Int64: Value] = [:]
        /// The keys with a load under way, to tell a load that raced an event: only those, so this stays as
        /// small as the loads in flight.
        var loading: [Int64: Loading] = [:]

        /// A load of `key` begins; returns the events counted for it so far.
        mutating func beginLoad(_ key: Int64) -> Int {
            var entry = loading[key] ?? Loading()
            entry.loads += 1
            loading[key] = entry
            return entry.events
        }

        /// A load of `key` that began at `events` ends; returns whether an event for the key came meanwhile.
        mutating func endLoad(_ key: Int64, begunAt events: Int) -> Bool {
            guard var entry = loading[key] else { return true }
            entry.loads -= 1
            loading[key] = entry.loads > 0 ? entry : nil
            return entry.events != events
        }
    }

    /// The loads under way for one key, and the events applied to it since the first of them began.
    private struct Loading {
        var loads = 0
        var events = 0
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let subject: @Sendable (CommitEvent) -> Event?
    private let keys: @Sendable (Event) -> [Int64]
    /// Nil for values an event cannot update, only end (`dropping`).
    private let update: (@Sendable (inout Value, Event, Int64) -> Void)?

    /// A cache of at most `capacity` keys (past it, it starts again), where `subject` picks the events of its
    /// subject out of a commit's, `keys` names the keys an event changes and `update` applies the event to one
    /// key's value.
    init(
        capacity: Int, subject: @escaping @Sendable (CommitEvent) -> Event?,
        keys: @escaping @Sendable (Event) -> [Int64],
        update: (@Sendable (inout Value, Event, Int64) -> Void)?
    ) {
        self.capacity = capacity
        self.subject = subject
        self.keys = keys
        self.update = update
    }

    /// A cache whose values an event cannot update, only end: an event for a key drops its value, and the next
    /// read loads it again (what a count is, when the event does not say by how much it moved).
    static func dropping(
        capacity: Int, subject: @escaping @Sendable (CommitEvent) -> Event?,
        keys: @escaping @Sendable (Event) -> [Int64]
    ) -> KeyedCommitCache {
        KeyedCommitCache(capacity: capacity, subject: subject, keys: keys, update: nil)
    }

    /// How many keys have a load under way (for tests: none once every load has ended).
    var keysLoading: Int {
        state.withLock { $0.loading.count }
    }

    /// The value of `key` if it is cached.
    func cached(_ key: Int64) -> Value? {
        state.withLock { $0.values[key] }
    }

    /// The value of `key`, loading it with `load` when it is not cached.
    func value(of key: Int64, load: () async throws -> Value) async throws -> Value {
        if let value = cached(key) { return value }
        let begunAt = state.withLock { $0.beginLoad(key) }
        let loaded: Value
        do {
            loaded = try await load()
        } catch {
            _ = state.withLock { $0.endLoad(key, begunAt: begunAt) }
            throw error
        }
        state.withLock { state in
            guard !state.endLoad(key, begunAt: begunAt) else { return }
            if state.values.count >= capacity { state.values = [:] }
            state.values[key] = loaded
        }
        return loaded
    }

    /// Applies a commit's events of its subject to the values cached.
    func apply(_ events: [CommitEvent]) {
        // Found before locking: most events (every post) change no key, and a batch of posts then takes no lock
        // on the writer's thread, which every post waits for.
        let changes = events.compactMap { committed -> (Event, [Int64])? in
            guard let event = subject(committed) else { return nil }
            let keys = keys(event)
            return keys.isEmpty ? nil : (event, keys)
        }
        guard !changes.isEmpty else { return }
        state.withLock { state in
            for (event, keys) in changes {
                for key in keys {
                    state.loading[key]?.events += 1
                    // Taken out, so that updating it does not copy it.
                    guard var value = state.values.removeValue(forKey: key), let update else { continue }
                    update(&value, event, key)
                    state.values[key] = value
                }
            }
        }
    }
}
