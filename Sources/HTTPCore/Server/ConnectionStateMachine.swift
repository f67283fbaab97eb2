/// The lifecycle of one connection as a pure state machine (after swift-nio's `HTTPServerPipelineHandler` and its
/// `ConnectionState`): the connection reports what happened (bytes or the end of input arrived, a handler answers
/// later, its answer came, everything queued was sent, a drain began), with the few facts about its buffers the
/// decision needs, and gets back what to do; it does the I/O. No I/O, clock or thread inside, so tests drive it
/// step by step. ``ConnectionTimeouts`` decides the deadlines beside it.
///
/// The state holds plain values only: the connection keeps what a state stands for (its buffers, its TLS session,
/// the body being streamed), and a request answered later carries its own context to its answer. The connection
/// reads its state several times per request; with a string or an object in it, each of those reads was a copy
/// and a destroy out of line, with reference counting (six such copies in `processRequests` alone), where plain
/// values are a load. A transition that makes no sense where the connection is (an answer after the connection
/// closed, a second response while one is streamed) changes nothing and says so in its result, usually `.none`
/// or `.close`; none traps.
package struct ConnectionStateMachine: Equatable, Sendable {
    /// What the connection is doing.
    package enum State: Equatable, Sendable {
        /// A TLS handshake is not finished. `checkedFirstByte`: the first byte was seen to open a TLS record.
        case handshaking(checkedFirstByte: Bool)
        /// Reading requests and answering each as it is parsed, pipelined ones in order; no answer is pending.
        case reading(Flow)
        /// A handler answers the request later; the requests behind it wait, buffered (bounded).
        case awaitingResponse(Flow, ending: Ending?)
        /// A response body is being streamed; the requests behind it wait. `pulled`: the body is a pulled source
        /// (open-ended, ended at once when the client leaves or a drain begins) rather than a producer's task.
        case streaming(pulled: Bool, Flow, ending: Ending?)
        /// The last response is queued: input is discarded, and the close lingers once everything is sent.
        /// `peerClosed`: the client closed its sending side already, so nothing is left to wait for.
        case closing(Flow, peerClosed: Bool)
        /// Our sending side is shut; input is read and discarded until the client closes or the linger time passes.
        case lingering
        /// The descriptor is closed.
        case closed
    }

    /// How reading goes while the connection is open.
    package struct Flow: Equatable, Sendable {
        /// Why reading stopped, or nil while it goes on.
        package var paused: ReadPause?
        /// A TLS read must be retried once the socket is writable (the session has to send first).
        package var readWantsWritable = false
        /// A TLS write must be retried once the socket is readable (the session has to receive first).
        package var writeWantsReadable = false

        /// Reading on, waiting for nothing unless told.
        package init(paused: ReadPause? = nil, readWantsWritable: Bool = false, writeWantsReadable: Bool = false) {
            self.paused = paused
            self.readWantsWritable = readWantsWritable
            self.writeWantsReadable = writeWantsReadable
        }
    }

    /// Why reading stopped.
    package enum ReadPause: Equatable, Sendable {
        /// More input arrived than may be buffered while a response is being made.
        case inputBuffered
        /// More answers wait to be sent than the client may have queued (RFC 9112 §9.3.2): it is not reading them.
        case answersQueued
    }

    /// Why the connection closes once the response in progress is sent.
    package enum Ending: Equatable, Sendable {
        /// A graceful shutdown began: the response in progress is the last.
        case draining
        /// The client closed its sending side: no request can follow.
        case peerClosed
    }

    /// What the connection does next.
    package enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Parse the bytes that arrived (after any buffered before them) and answer what they complete.
        case parse
        /// Keep the bytes that arrived for later: a response is being made.
        case buffer
        /// Drop the bytes that arrived: nothing more will be answered.
        case discard
        /// Read what the socket holds.
        case read
        /// Go on with the TLS handshake.
        case handshake
        /// Answer `503` without reading a request: the connection is over the limit.
        case answerOverLimit
        /// Answer `400` in plain text: plain HTTP came to the TLS port.
        case answerPlainHTTP
        /// Answer the error in hand, then close: nothing else is being answered.
        case answerError
        /// Parse what waits buffered and send what is queued, then see whether reading resumes.
        case parseBuffered
        /// End the streamed body now (a pulled source: there is no producer to ask).
        case finishStream
        /// Ask the streamed body's producer to end it.
        case cancelProducer
        /// Read on for the last request (a drain began): wait for it no longer than the request-head timeout.
        case awaitLastRequest
        /// Shut the sending side and read on only to discard; `thenClose`: the client closed already, so close.
        case linger(thenClose: Bool)
        /// Close the connection.
        case close
    }

    /// The bounds on what waits in the connection's buffers.
    package struct Limits: Equatable, Sendable {
        /// Input buffered beyond this while a response is being made pauses reading.
        package var maxBufferedInput: Int
        /// Unsent answers beyond this stop the parsing of pipelined requests, and reading, until the client takes
        /// them (``HTTPServerConfiguration/maxQueuedResponseBytes``).
        package var maxQueuedAnswers: Int

        /// - Parameters:
        ///   - maxBufferedInput: Input buffered beyond this while a response is being made pauses reading.
        ///   - maxQueuedAnswers: Unsent answers beyond this stop parsing and reading; a negative one counts as 0.
        package init(maxBufferedInput: Int, maxQueuedAnswers: Int) {
            self.maxBufferedInput = maxBufferedInput
            self.maxQueuedAnswers = max(maxQueuedAnswers, 0)
        }
    }

    /// Where the connection is; changed only by the transitions (in ConnectionStateMachine+Transitions.swift).
    package internal(set) var state: State
    /// The bounds on the connection's buffered input and queued answers.
    package let limits: Limits
    /// Whether the connection is over the limit: it is told `503` and closed, and none of its requests is read.
    package let rejecting: Bool
    /// Whether a graceful shutdown began: the request being read (or the first, on a connection that has not
    /// sent one yet) is the last, and its answer says `Connection: close`.
    package internal(set) var draining = false
    /// Whether a response to a request of this connection was begun: until then a drain waits for its request
    /// (the client opened it to send one, maybe just before the drain) instead of closing it.
    package internal(set) var answeredRequest = false

    /// - Parameters:
    ///   - handshaking: Whether a TLS handshake comes first.
    ///   - rejecting: Whether the connection is over the limit and is only told `503`.
    ///   - limits: The bounds on its buffers.
    package init(handshaking: Bool, rejecting: Bool, limits: Limits) {
        self.state = handshaking ? .handshaking(checkedFirstByte: false) : .reading(Flow())
        self.rejecting = rejecting
        self.limits = limits
    }
}

// MARK: - What the connection asks

extension ConnectionStateMachine {
    /// Whether the descriptor is closed: nothing more is read or written.
    package var isClosed: Bool { state == .closed }

    /// Whether the sending side is shut and input is only read and discarded.
    package var isLingering: Bool { state == .lingering }

    /// Whether the TLS handshake is not finished yet.
    package var isHandshaking: Bool {
        if case .handshaking = state { return true }
        return false
    }

    /// Whether requests are parsed and answered now: none is being answered and the connection is not closing.
    package var parsesRequests: Bool {
        if case .reading = state { return true }
        return false
    }

    /// Whether input left unparsed is kept for later: requests are parsed, or wait for the answer being made.
    package var keepsInput: Bool {
        switch state {
        case .reading, .awaitingResponse(_, nil), .streaming(_, _, nil): true
        case .awaitingResponse, .streaming, .closing, .handshaking, .lingering, .closed: false
        }
    }

    /// Whether a response written now may leave the connection open for the next request (not once draining).
    package var keepsAlive: Bool { parsesRequests && !draining }

    /// Whether a response body is being streamed.
    package var isStreaming: Bool {
        if case .streaming = state { return true }
        return false
    }

    /// How reading goes, while the connection is open.
    package var flow: Flow? {
        switch state {
        case .reading(let flow), .awaitingResponse(let flow, _), .streaming(_, let flow, _), .closing(let flow, _):
            flow
        case .handshaking, .lingering, .closed:
            nil
        }
    }

    /// Whether reading stopped until answers are taken or the response in progress is made.
    package var readingIsPaused: Bool { flow?.paused != nil }

    /// Whether `unsent` bytes of answers are more than the client may have queued.
    package func answersOverBound(unsent: Int) -> Bool { unsent > limits.maxQueuedAnswers }
}
