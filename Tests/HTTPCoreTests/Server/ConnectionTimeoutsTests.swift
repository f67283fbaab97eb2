import HTTPCore
import Testing
import TestSupport

/// The connection's timeout state machine, driven by a manual clock: no sockets, no sleeping.
struct ConnectionTimeoutsTests {
    typealias Machine = ConnectionTimeouts<ManualClock.Instant>
    let clock = ManualClock()
    let timeouts = HTTPTimeouts(
        headerRead: .seconds(10), bodyRead: .seconds(30), idle: .seconds(60), write: .seconds(20),
        lingeringClose: .seconds(2))

    @Test func idleConnectionClosesSilentlyAfterTheIdleTimeout() {
        let machine = Machine(timeouts: timeouts, now: clock.now)
        #expect(machine.deadline == clock.now.advanced(by: .seconds(60)))
        clock.advance(by: .seconds(59))
        #expect(machine.action(at: clock.now) == .none)
        clock.advance(by: .seconds(1))
        #expect(machine.action(at: clock.now) == .close)
    }

    /// Once a drain began, a connection waiting for its (last) request waits no longer than for a request head,
    /// and is then closed silently; a request that started arriving keeps its own head deadline.
    @Test func aDrainCutsTheIdleWaitToTheDrainGrace() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        clock.advance(by: .seconds(5))
        machine.drainBegan(at: clock.now)
        #expect(machine.deadline == clock.now.advanced(by: Machine.drainGrace))
        clock.advance(by: Machine.drainGrace - .milliseconds(1))
        #expect(machine.action(at: clock.now) == .none)
        clock.advance(by: .milliseconds(1))
        #expect(machine.action(at: clock.now) == .close)

        var nearlyIdle = Machine(timeouts: timeouts, now: clock.now)
        clock.advance(by: .seconds(59))
        nearlyIdle.drainBegan(at: clock.now)
        #expect(nearlyIdle.deadline == clock.now.advanced(by: .seconds(1)), "never later than the idle timeout")

        var shortHead = Machine(timeouts: HTTPTimeouts(headerRead: .milliseconds(500)), now: clock.now)
        shortHead.drainBegan(at: clock.now)
        #expect(shortHead.deadline == clock.now.advanced(by: .milliseconds(500)), "never later than the head timeout")

        var reading = Machine(timeouts: timeouts, now: clock.now)
        reading.drainBegan(at: clock.now)
        clock.advance(by: .seconds(8))
        reading.receivedBytes(at: clock.now)
        #expect(reading.deadline == clock.now.advanced(by: .seconds(10)))
    }

    @Test func firstByteStartsTheHeaderDeadlineWhichAnswers408() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        clock.advance(by: .seconds(5))
        machine.receivedBytes(at: clock.now)
        #expect(machine.phase == .readingHead(since: clock.now))
        clock.advance(by: .seconds(9))
        machine.receivedBytes(at: clock.now)  // more bytes of the same head do not extend the deadline
        #expect(machine.action(at: clock.now) == .none)
        clock.advance(by: .seconds(1))
        #expect(machine.action(at: clock.now) == .requestTimeout)
    }

    @Test func bodyDeadlineCountsFromTheEndOfTheHead() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedBytes(at: clock.now)
        clock.advance(by: .seconds(3))
        machine.receivedHead(at: clock.now)
        #expect(machine.deadline == clock.now.advanced(by: .seconds(30)))
        clock.advance(by: .seconds(30))
        #expect(machine.action(at: clock.now) == .requestTimeout)
    }

    @Test func noDeadlineWhileTheResponseIsBeingMade() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedBytes(at: clock.now)
        machine.receivedRequest()
        #expect(machine.deadline == nil)
        clock.advance(by: .seconds(3600))
        #expect(machine.action(at: clock.now) == .none)
    }

    @Test func finishedResponseReturnsToIdleOrToAPipelinedHead() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedRequest()
        clock.advance(by: .seconds(1))
        machine.finishedResponse(at: clock.now, pipelined: false)
        #expect(machine.phase == .idle(since: clock.now))
        machine.receivedRequest()
        machine.finishedResponse(at: clock.now, pipelined: true)
        #expect(machine.phase == .readingHead(since: clock.now))
    }

    @Test func writeStallAbortsAfterTheWriteTimeoutFromTheFirstStall() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedRequest()
        machine.writeStalled(at: clock.now)
        clock.advance(by: .seconds(10))
        machine.writeStalled(at: clock.now)  // still stalled: the deadline keeps its start
        #expect(machine.deadline == clock.now.advanced(by: .seconds(10)))
        clock.advance(by: .seconds(10))
        #expect(machine.action(at: clock.now) == .abort)
    }

    @Test func writeProgressRestartsTheWriteDeadlineAndDrainingClearsIt() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedRequest()
        machine.writeStalled(at: clock.now)
        clock.advance(by: .seconds(15))
        machine.writeProgressed(at: clock.now, drained: false)
        clock.advance(by: .seconds(15))
        #expect(machine.action(at: clock.now) == .none)
        machine.writeProgressed(at: clock.now, drained: true)
        #expect(machine.writeStalledSince == nil)
        #expect(machine.deadline == nil)
    }

    /// A large response read slowly but steadily for longer than the idle timeout is not cut: the keep-alive
    /// deadline starts when its last byte is sent (it used to start when the response was handed over).
    @Test(arguments: [false, true])
    func keepAliveAndNextHeadDeadlinesStartWhenTheResponseIsSent(pipelined: Bool) {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedRequest()
        machine.finishedResponse(at: clock.now, pipelined: pipelined)
        machine.writeStalled(at: clock.now)
        for _ in 0..<10 {  // 150 s of progress every 15 s: past the idle (60 s) and head (10 s) timeouts
            clock.advance(by: .seconds(15))
            #expect(machine.action(at: clock.now) == .none)
            machine.writeProgressed(at: clock.now, drained: false)
            #expect(machine.deadline == clock.now.advanced(by: .seconds(20)))  // only the write deadline
        }
        machine.writeProgressed(at: clock.now, drained: true)
        #expect(machine.phase == (pipelined ? .readingHead(since: clock.now) : .idle(since: clock.now)))
        #expect(machine.deadline == clock.now.advanced(by: pipelined ? .seconds(10) : .seconds(60)))
        clock.advance(by: pipelined ? .seconds(10) : .seconds(60))
        #expect(machine.action(at: clock.now) == (pipelined ? .requestTimeout : .close))
    }

    @Test func aStalledResponseIsStillAbortedByTheWriteTimeout() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.receivedRequest()
        machine.finishedResponse(at: clock.now, pipelined: false)
        machine.writeStalled(at: clock.now)
        clock.advance(by: .seconds(20))
        #expect(machine.action(at: clock.now) == .abort)
    }

    @Test func lingeringEndsAfterItsTimeAndIgnoresLaterEvents() {
        var machine = Machine(timeouts: timeouts, now: clock.now)
        machine.startedLingering(at: clock.now)
        machine.receivedRequest()
        machine.finishedResponse(at: clock.now, pipelined: false)
        #expect(machine.phase == .lingering(since: clock.now))
        clock.advance(by: .seconds(2))
        #expect(machine.action(at: clock.now) == .close)
    }
}
