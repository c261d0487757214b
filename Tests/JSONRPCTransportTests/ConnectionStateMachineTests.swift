import Testing

@testable import JSONRPCTransport
@testable import TwitterServer

/// The connection's life, transition by transition.
struct ConnectionStateMachineTests {
    @Test func readsFlowWhileIdleAndAreHeldWhileATaskAnswers() {
        var machine = ConnectionStateMachine()
        #expect(machine.readRequested() == .read)
        #expect(machine.answerStarted() == .none)
        #expect(!machine.canAnswer)
        #expect(machine.readRequested() == .hold)
        #expect(machine.answerFinished() == .resumeReading)
        #expect(machine.canAnswer)
        #expect(machine.readRequested() == .read)
    }

    @Test func aTaskThatNobodyReadBehindDoesNotResumeReading() {
        var machine = ConnectionStateMachine()
        _ = machine.answerStarted()
        #expect(machine.answerFinished() == .none)
        #expect(machine.state == .idle(.none))
    }

    @Test func endOfInputClosesAtOnceWithoutSubscriptionsAndAfterTheLastOneOtherwise() {
        var bare = ConnectionStateMachine()
        #expect(
            bare.inputEnded(hasSubscriptions: false) == .close(reason: "client closed the connection", notice: false))

        var subscribed = ConnectionStateMachine()
        #expect(subscribed.inputEnded(hasSubscriptions: true) == .none)
        #expect(subscribed.state == .idle(.inputEnded))
        #expect(subscribed.subscriptionsEnded() == .close(reason: "client closed the connection", notice: false))
        #expect(subscribed.isClosing)
    }

    @Test func subscriptionsEndingKeepAnOpenConnectionOpen() {
        var machine = ConnectionStateMachine()
        #expect(machine.subscriptionsEnded() == .none)
        #expect(machine.canAnswer)
    }

    @Test func anIdleDrainingConnectionClosesAfterAQuietPeriod() {
        var machine = ConnectionStateMachine()
        #expect(machine.drainRequested() == .scheduleQuietCheck)
        #expect(machine.drainRequested() == .none, "a second drain changes nothing")
        #expect(machine.quietPeriodEnded(framesWaiting: false) == .close(reason: "daemon stopping", notice: false))
    }

    @Test func bytesOrAnswersDuringTheQuietPeriodPostponeTheClose() {
        var machine = ConnectionStateMachine()
        _ = machine.drainRequested()
        machine.bytesArrived()
        #expect(machine.quietPeriodEnded(framesWaiting: false) == .scheduleQuietCheck)
        _ = machine.answerStarted()
        #expect(machine.quietPeriodEnded(framesWaiting: false) == .scheduleQuietCheck, "still answering")
        _ = machine.answerFinished()
        #expect(machine.quietPeriodEnded(framesWaiting: false) == .scheduleQuietCheck, "it answered since")
        #expect(machine.quietPeriodEnded(framesWaiting: true) == .scheduleQuietCheck, "frames wait")
        #expect(machine.quietPeriodEnded(framesWaiting: false) == .close(reason: "daemon stopping", notice: false))
    }

    @Test func aDrainDuringAnAnswerWaitsForIt() {
        var machine = ConnectionStateMachine()
        _ = machine.answerStarted()
        #expect(machine.drainRequested() == .scheduleQuietCheck)
        #expect(machine.state == .answering(.draining(sawActivity: true), readPending: false))
        #expect(machine.answerFinished() == .none)
        #expect(machine.state == .idle(.draining(sawActivity: true)))
    }

    @Test func closeHappensOnceAndTheFirstReasonIsKept() {
        var machine = ConnectionStateMachine()
        #expect(machine.closeRequested("idle timeout") == .close(reason: "idle timeout", notice: false))
        #expect(machine.closeRequested("line too long", notice: true) == .none)
        #expect(machine.drainRequested() == .none)
        #expect(machine.readRequested() == .hold)
        #expect(machine.channelClosed() == "idle timeout")
        #expect(machine.channelClosed() == nil)
    }

    @Test func aTaskFinishingAfterTheCloseChangesNothing() {
        var machine = ConnectionStateMachine()
        _ = machine.answerStarted()
        _ = machine.closeRequested("connection error")
        #expect(machine.answerFinished() == .none)
        #expect(machine.channelClosed() == "connection error")
    }

    @Test func thePeerClosingAnOpenConnectionIsRecorded() {
        var machine = ConnectionStateMachine()
        #expect(machine.channelClosed() == "client closed the connection")
        #expect(machine.state == .closed(reason: "client closed the connection"))
    }
}
