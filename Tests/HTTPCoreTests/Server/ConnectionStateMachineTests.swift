import HTTPCore
import Testing

/// The connection's lifecycle state machine, driven step by step: no socket, no thread, no sleeping. Each test is
/// one path a connection takes; the I/O shell (`Connection`) is exercised over sockets by the server's tests.
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    typealias Flow = ConnectionStateMachine.Flow
    static let limits = Machine.Limits(maxBufferedInput: 1000, maxQueuedAnswers: 256 * 1024)

    static func plain(rejecting: Bool = false) -> Machine {
        Machine(handshaking: false, rejecting: rejecting, limits: limits)
    }

    static func tls(rejecting: Bool = false) -> Machine {
        Machine(handshaking: true, rejecting: rejecting, limits: limits)
    }

    // MARK: Answering at once

    @Test func aKeptAliveAnswerReadsOnAndALastOneLingersOnceSent() {
        var machine = Self.plain()
        #expect(machine.started() == .none)
        #expect(machine.received(buffered: 40) == .parse)
        #expect(machine.keepsAlive)
        #expect(machine.finishedResponse(keepAlive: true) == true)
        #expect(machine.flushed() == .none)
        #expect(machine.state == .reading(Flow()))

        #expect(machine.finishedResponse(keepAlive: false) == false)  // `Connection: close`
        #expect(machine.state == .closing(Flow(), peerClosed: false))
        #expect(!machine.keepsAlive && !machine.parsesRequests && !machine.keepsInput)
        #expect(machine.received(buffered: 40) == .discard)
        #expect(machine.flushed() == .linger(thenClose: false))
        #expect(machine.state == .lingering)
        #expect(machine.received(buffered: 40) == .discard)
        #expect(machine.peerClosed(unsent: false, midRequest: false) == .close)
        machine.close()
        #expect(machine.isClosed)
    }

    @Test func aPlainConnectionOverTheLimitIsAnswered503AtOnceAndReadsNothing() {
        var machine = Self.plain(rejecting: true)
        #expect(machine.started() == .answerOverLimit)
        #expect(machine.state == .closing(Flow(), peerClosed: false))
        #expect(machine.received(buffered: 40) == .discard)
        #expect(machine.failed() == .answerError)
        #expect(machine.finishedResponse(keepAlive: false) == false)
        #expect(machine.flushed() == .linger(thenClose: false))
    }

    // MARK: Pipelining

    @Test func requestsBehindALaterAnswerWaitBufferedAndBoundedUntilItComes() {
        var machine = Self.plain()
        #expect(machine.received(buffered: 100) == .parse)
        #expect(machine.awaitAnswer() == .none)
        #expect(machine.state == .awaitingResponse(Flow(), ending: nil))
        #expect(!machine.parsesRequests && machine.keepsInput)
        #expect(machine.received(buffered: 1000) == .buffer)
        #expect(!machine.readingIsPaused)
        #expect(machine.received(buffered: 1001) == .buffer)  // over the bound: kept, and reading pauses
        #expect(machine.state == .awaitingResponse(Flow(paused: .inputBuffered), ending: nil))
        #expect(machine.answersTaken(unsent: 0) == .none, "a readiness event does not resume a response's pause")

        #expect(machine.answerArrived() == true)
        #expect(machine.state == .reading(Flow(paused: .inputBuffered)))
        #expect(machine.keepsAlive)
        #expect(machine.finishedResponse(keepAlive: true) == true)
        #expect(machine.resumeReading(unsent: 0) == true)
        #expect(machine.state == .reading(Flow()))
        #expect(machine.answerArrived() == false, "no second answer is taken")
    }

    @Test func queuedAnswersOverTheBoundPauseParsingUntilTheClientTakesThem() {
        var machine = Self.plain()
        let bound = Self.limits.maxQueuedAnswers
        #expect(!machine.answersOverBound(unsent: bound))
        #expect(machine.answersOverBound(unsent: bound + 1))
        #expect(machine.pauseIfAnswersQueued(unsent: bound) == false)
        #expect(machine.pauseIfAnswersQueued(unsent: bound + 1) == true)
        #expect(machine.state == .reading(Flow(paused: .answersQueued)))
        #expect(machine.answersTaken(unsent: bound + 1) == .none)
        #expect(machine.resumeReading(unsent: bound + 1) == false)
        #expect(machine.answersTaken(unsent: bound) == .parseBuffered)
        #expect(machine.resumeReading(unsent: bound) == true)
        #expect(machine.state == .reading(Flow()))
        #expect(machine.resumeReading(unsent: 0) == false, "nothing to resume")
    }

    // MARK: The client closing its input

    @Test func theClientsEndClosesAnIdleConnectionAndWaitsForAnswersBeingSent() {
        var idle = Self.plain()
        #expect(idle.peerClosed(unsent: false, midRequest: false) == .close)

        var halfRequest = Self.plain()
        #expect(halfRequest.peerClosed(unsent: true, midRequest: true) == .close, "a request that can never complete")

        var sending = Self.plain()
        #expect(sending.peerClosed(unsent: true, midRequest: false) == .none)
        #expect(sending.state == .closing(Flow(), peerClosed: true))
        #expect(sending.received(buffered: 10) == .discard)
        #expect(sending.flushed() == .linger(thenClose: true))
    }

    @Test func theClientsEndWhileAnAnswerIsMadeClosesAfterIt() {
        var machine = Self.plain()
        #expect(machine.awaitAnswer() == .none)
        #expect(machine.peerClosed(unsent: false, midRequest: false) == .none)
        #expect(machine.state == .awaitingResponse(Flow(), ending: .peerClosed))
        #expect(machine.received(buffered: 10) == .discard)
        #expect(machine.answerArrived() == true)
        #expect(!machine.keepsAlive, "its answer says Connection: close")
        #expect(machine.finishedResponse(keepAlive: true) == false)
        #expect(machine.flushed() == .linger(thenClose: true))
    }

    @Test func theClientsEndEndsAPulledStreamAtOnceAndLetsAProducersFinish() {
        var events = Self.plain()
        #expect(events.startedStreaming(pulled: true) == .none)
        #expect(events.peerClosed(unsent: false, midRequest: false) == .finishStream)
        #expect(events.finishedResponse(keepAlive: true) == false)
        #expect(events.flushed() == .linger(thenClose: true))

        var download = Self.plain()
        #expect(download.startedStreaming(pulled: false) == .none)
        #expect(download.peerClosed(unsent: true, midRequest: false) == .none)
        #expect(download.state == .streaming(pulled: false, Flow(), ending: .peerClosed))
        #expect(download.finishedResponse(keepAlive: true) == false)
    }

    // MARK: Streaming

    @Test func aStreamedBodyHoldsLaterRequestsAndItsEndReadsOn() {
        var machine = Self.plain()
        #expect(machine.startedStreaming(pulled: false) == .none)
        #expect(machine.isStreaming)
        #expect(machine.received(buffered: 10) == .buffer)
        #expect(machine.startedStreaming(pulled: false) == .close, "a second body could not be framed")
        #expect(machine.awaitAnswer() == .close)
        #expect(machine.failed() == .close, "nothing well-framed can follow a body cut short")
        #expect(machine.finishedResponse(keepAlive: true) == true)
        #expect(machine.state == .reading(Flow()))
    }

    @Test func aClosedConnectionTakesNothingMore() {
        var machine = Self.plain()
        #expect(machine.startedStreaming(pulled: false) == .none)
        machine.close()
        #expect(machine.isClosed && !machine.isStreaming)
        #expect(machine.received(buffered: 10) == .discard)
        #expect(machine.finishedResponse(keepAlive: true) == false)
        #expect(machine.flushed() == .none)
        #expect(machine.flow == nil)
    }

    // MARK: Draining

    @Test func aDrainClosesIdleKeptAliveConnectionsAndBusyOnesAfterTheirResponse() {
        var idle = Self.plain()
        #expect(idle.received(buffered: 40) == .parse)
        #expect(idle.finishedResponse(keepAlive: true) == true)
        #expect(idle.drain(midRequest: false, unsent: false) == .close, "it was answered; no request is owed")

        var sending = Self.plain()
        #expect(sending.finishedResponse(keepAlive: true) == true)
        #expect(sending.drain(midRequest: false, unsent: true) == .none, "its answers are sent first")
        #expect(sending.state == .closing(Flow(), peerClosed: false))
        #expect(sending.received(buffered: 10) == .discard)
        #expect(sending.flushed() == .linger(thenClose: false))

        var awaiting = Self.plain()
        #expect(awaiting.awaitAnswer() == .none)
        #expect(awaiting.drain(midRequest: false, unsent: false) == .none)
        #expect(awaiting.answerArrived() == true)
        #expect(awaiting.state == .closing(Flow(), peerClosed: false))
        #expect(awaiting.finishedResponse(keepAlive: true) == false)
        #expect(awaiting.flushed() == .linger(thenClose: false))
        #expect(awaiting.drain(midRequest: false, unsent: false) == .none, "lingering already")
    }

    /// The race of a deploy: a connection accepted just before the drain, whose request was not read yet (or not
    /// sent yet), is answered that one request with `Connection: close`, not closed unanswered (a reset for its
    /// client); the connection waits for it only as long as for a request head.
    @Test func aDrainAnswersTheFirstRequestOfAConnectionThatHadNoneYetThenCloses() {
        var fresh = Self.plain()
        #expect(fresh.drain(midRequest: false, unsent: false) == .awaitLastRequest)
        #expect(fresh.state == .reading(Flow()) && fresh.draining)
        #expect(fresh.received(buffered: 40) == .parse, "its request is read")
        #expect(fresh.parsesRequests && !fresh.keepsAlive, "and answered with `Connection: close`")
        #expect(fresh.finishedResponse(keepAlive: true) == false, "the drain outranks the request's keep-alive")
        #expect(fresh.state == .closing(Flow(), peerClosed: false))
        #expect(fresh.received(buffered: 40) == .discard, "nothing after it is answered")
        #expect(fresh.flushed() == .linger(thenClose: false))

        var later = Self.plain()
        #expect(later.drain(midRequest: false, unsent: false) == .awaitLastRequest)
        #expect(later.awaitAnswer() == .none, "answered later")
        #expect(later.state == .awaitingResponse(Flow(), ending: .draining))
        #expect(later.answerArrived() == true)
        #expect(!later.keepsAlive)

        var streamed = Self.plain()
        #expect(streamed.drain(midRequest: false, unsent: false) == .awaitLastRequest)
        #expect(streamed.startedStreaming(pulled: true) == .none)
        #expect(streamed.state == .streaming(pulled: true, Flow(), ending: .draining))
        #expect(streamed.finishedResponse(keepAlive: true) == false)
    }

    @Test func aDrainLetsTheRequestBeingReadCompleteAndAnswersItLast() {
        var midRequest = Self.plain()
        #expect(midRequest.finishedResponse(keepAlive: true) == true)
        #expect(midRequest.drain(midRequest: true, unsent: false) == .awaitLastRequest)
        #expect(midRequest.received(buffered: 10) == .parse, "the rest of its request is read")
        #expect(!midRequest.keepsAlive)
        #expect(midRequest.failed() == .answerError, "its request timeout is still answered")
        #expect(midRequest.finishedResponse(keepAlive: true) == false)
    }

    @Test func aDrainAsksAProducerToEndAndEndsAPulledBody() {
        var download = Self.plain()
        #expect(download.startedStreaming(pulled: false) == .none)
        #expect(download.drain(midRequest: false, unsent: false) == .cancelProducer)
        #expect(download.finishedResponse(keepAlive: true) == false)

        var events = Self.plain()
        #expect(events.startedStreaming(pulled: true) == .none)
        #expect(events.drain(midRequest: false, unsent: false) == .finishStream)
        #expect(events.peerClosed(unsent: true, midRequest: false) == .finishStream)
        #expect(events.finishedResponse(keepAlive: true) == false)
        #expect(events.flushed() == .linger(thenClose: true), "the client's end outranks the drain")
    }

    @Test func anAnswerThatArrivesWhileDrainingAndStreamsClosesAfterItsBody() {
        var machine = Self.plain()
        #expect(machine.awaitAnswer() == .none)
        #expect(machine.drain(midRequest: false, unsent: false) == .none)
        #expect(machine.answerArrived() == true)
        #expect(machine.startedStreaming(pulled: false) == .none)
        #expect(machine.state == .streaming(pulled: false, Flow(), ending: .draining))
        #expect(machine.finishedResponse(keepAlive: true) == false)
    }

    // MARK: TLS

    @Test func aTLSConnectionHandshakesThenReads() {
        var machine = Self.tls()
        #expect(machine.started() == .none)
        #expect(machine.state == .handshaking(checkedFirstByte: false))
        #expect(machine.received(buffered: 10) == .discard)
        #expect(machine.receivedFirstByte(0x16) == .handshake)
        #expect(machine.receivedFirstByte(0x16) == .none, "checked once")
        #expect(machine.state == .handshaking(checkedFirstByte: true))
        #expect(machine.finishedHandshake() == .read)
        #expect(machine.state == .reading(Flow()))
        #expect(machine.finishedHandshake() == .none)
    }

    @Test func plainHTTPToTheTLSPortIsAnswered400AndOtherBytesAreClosed() {
        var http = Self.tls()
        #expect(http.receivedFirstByte(UInt8(ascii: "G")) == .answerPlainHTTP)
        #expect(http.state == .reading(Flow()))
        #expect(http.failed() == .answerError)

        var noise = Self.tls()
        #expect(noise.receivedFirstByte(0x00) == .close)
        #expect(noise.receivedFirstByte(UInt8(ascii: "g")) == .close)
    }

    @Test func aTLSConnectionOverTheLimitIsAnswered503OnceItsSessionIsUp() {
        var machine = Self.tls(rejecting: true)
        #expect(machine.started() == .none, "not before the client can read it")
        #expect(machine.receivedFirstByte(0x16) == .handshake)
        #expect(machine.finishedHandshake() == .answerOverLimit)
        #expect(machine.state == .closing(Flow(), peerClosed: false))
        #expect(machine.received(buffered: 10) == .discard)
    }

    @Test func aConnectionStillInItsHandshakeWhenADrainBeginsIsAnsweredItsFirstRequest() {
        var machine = Self.tls()
        #expect(machine.receivedFirstByte(0x16) == .handshake)
        #expect(machine.drain(midRequest: false, unsent: false) == .awaitLastRequest)
        #expect(machine.finishedHandshake() == .read)
        #expect(machine.received(buffered: 40) == .parse)
        #expect(!machine.keepsAlive)
        #expect(machine.finishedResponse(keepAlive: true) == false)
    }

    @Test func tlsWantsAreKeptWhileOpenAndForgottenOnceLingering() {
        var machine = Self.tls()
        machine.tlsRead(wantsWritable: true)
        #expect(machine.flow == nil, "nothing to want during the handshake")
        #expect(machine.receivedFirstByte(0x16) == .handshake)
        #expect(machine.finishedHandshake() == .read)
        machine.tlsRead(wantsWritable: true)
        machine.tlsWrite(wantsReadable: true)
        #expect(machine.state == .reading(Flow(readWantsWritable: true, writeWantsReadable: true)))
        #expect(machine.awaitAnswer() == .none)
        machine.tlsRead(wantsWritable: false)
        #expect(machine.state == .awaitingResponse(Flow(writeWantsReadable: true), ending: nil))
        #expect(machine.answerArrived() == true)
        #expect(machine.state == .reading(Flow(writeWantsReadable: true)), "carried through the answer")
        #expect(machine.finishedResponse(keepAlive: false) == false)
        #expect(machine.flushed() == .linger(thenClose: false))
        #expect(machine.flow == nil)
    }

    // MARK: Transitions that make no sense where the connection is

    @Test func anInvalidTransitionChangesNothingAndNeverTraps() {
        var machine = Self.plain()
        #expect(machine.answerArrived() == false)
        #expect(machine.receivedFirstByte(0x16) == .none)
        #expect(machine.finishedHandshake() == .none)
        #expect(machine.state == .reading(Flow()))
        machine.close()
        #expect(machine.awaitAnswer() == .close)
        #expect(machine.startedStreaming(pulled: true) == .close)
        #expect(machine.peerClosed(unsent: true, midRequest: false) == .none)
        #expect(machine.drain(midRequest: false, unsent: false) == .none)
        #expect(machine.resumeReading(unsent: 0) == false)
        #expect(machine.state == .closed)
    }
}
