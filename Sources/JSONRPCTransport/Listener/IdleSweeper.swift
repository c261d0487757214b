import NIOCore

/// Tells the connections of one event loop that have been quiet for the idle timeout, with one repeating check
/// for all of them.
///
/// A timer per connection cost each idle connection a scheduled task, its promise and its closures; here a
/// connection costs a slot in an array, and activity costs a flag instead of a clock read. Each check clears
/// the flags it finds set and starts the quiet period of those connections then, so a connection is told
/// between `timeout` and `timeout + 2 × interval` after its last read or write (`interval` is an eighth of the
/// timeout). A connection found quiet by a check gives back its framing buffer. No check is scheduled while the
/// loop has no connection.
///
/// It lives on its event loop and is only touched there (`IdleSweepers` hands each loop its own).
final class IdleSweeper {
    /// How often the members are checked, as a fraction of the timeout.
    static let checksPerTimeout: Int64 = 8

    let timeout: TimeAmount
    private let eventLoop: any EventLoop
    private var members: [LineFramingHandler] = []
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount, eventLoop: any EventLoop) {
        self.timeout = timeout
        self.eventLoop = eventLoop
    }

    var interval: TimeAmount { .nanoseconds(max(timeout.nanoseconds / Self.checksPerTimeout, 1_000_000)) }

    /// The connections being watched.
    var count: Int { members.count }

    /// Starts watching `member`, quiet from now.
    func add(_ member: LineFramingHandler) {
        member.sweepSlot = Slot(index: members.count, quietSince: eventLoop.now)
        members.append(member)
        if check == nil { scheduleCheck() }
    }

    /// Stops watching `member`.
    func remove(_ member: LineFramingHandler) {
        guard let slot = member.sweepSlot else { return }
        member.sweepSlot = nil
        let last = members.removeLast()
        if slot.index < members.count {
            members[slot.index] = last
            last.sweepSlot?.index = slot.index
        }
        if members.isEmpty {
            check?.cancel()
            check = nil
            // An array of ten thousand slots is not kept for a loop that has none.
            members = []
        }
    }

    private func scheduleCheck() {
        check = eventLoop.assumeIsolated().scheduleTask(in: interval) { self.checkMembers() }
    }

    /// Clears the activity seen since the last check, and tells each member quiet for the timeout.
    func checkMembers() {
        check = nil
        let now = eventLoop.now
        var quiet: [LineFramingHandler] = []
        for member in members {
            guard var slot = member.sweepSlot else { continue }
            if member.sawActivity {
                member.sawActivity = false
                slot.quietSince = now
            } else {
                member.quietSinceLastCheck()
                if now - slot.quietSince >= timeout {
                    // Told again only after another timeout: a connection that stays open (it holds
                    // subscriptions) is checked again then.
                    slot.quietSince = now
                    quiet.append(member)
                }
            }
            member.sweepSlot = slot
        }
        // Told after the pass: a member that closes leaves the array while it is not being walked.
        for member in quiet where member.sweepSlot != nil { member.idleTimedOut() }
        if !members.isEmpty && check == nil { scheduleCheck() }
    }

    /// Where a connection sits in `members`, and since when it has been quiet.
    struct Slot {
        var index: Int
        var quietSince: NIODeadline
    }
}
