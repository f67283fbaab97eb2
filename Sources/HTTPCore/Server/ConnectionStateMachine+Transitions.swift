/// The transitions: each is one thing that happened to the connection, and returns what it does next.
extension ConnectionStateMachine {
    // MARK: Starting and TLS

    /// The connection is registered: a plain one over the limit is answered `503` at once (and closes after it);
    /// any other waits for bytes, or for its handshake.
    package mutating func started() -> Action {
        guard rejecting, case .reading(let flow) = state else { return .none }
        state = .closing(flow, peerClosed: false)
        return .answerOverLimit
    }

    /// The first byte a TLS connection received (peeked, not consumed): a TLS record goes on with the handshake; a
    /// request line's first letter means plain HTTP sent to the TLS port, answered `400` in plain text; anything
    /// else is closed without an answer.
    package mutating func receivedFirstByte(_ byte: UInt8) -> Action {
        guard state == .handshaking(checkedFirstByte: false) else { return .none }
        if byte == 0x16 {  // a TLS record carrying a handshake (RFC 8446 §5.1, content type 22)
            state = .handshaking(checkedFirstByte: true)
            return .handshake
        }
        guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) else { return .close }
        state = .reading(Flow())
        return .answerPlainHTTP
    }

    /// The TLS handshake finished: the connection reads (a TLS 1.3 client's first request often came with its
    /// Finished), or, over the limit, answers `503` now that the client can read it.
    package mutating func finishedHandshake() -> Action {
        guard isHandshaking else { return .none }
        state = rejecting ? .closing(Flow(), peerClosed: false) : .reading(Flow())
        return rejecting ? .answerOverLimit : .read
    }

    /// A TLS read ended because the session has to send first (`true`), or did not (`false`).
    package mutating func tlsRead(wantsWritable: Bool) {
        updateFlow { $0.readWantsWritable = wantsWritable }
    }

    /// A TLS write ended because the session has to receive first (`true`), or did not (`false`).
    package mutating func tlsWrite(wantsReadable: Bool) {
        updateFlow { $0.writeWantsReadable = wantsReadable }
    }

    // MARK: Input

    /// Bytes arrived; `buffered` of them (these included) would wait unparsed if they were kept: parse them when
    /// no answer is pending, keep them while one is being made (pausing reading past
    /// ``Limits/maxBufferedInput``), drop them once nothing more will be answered.
    package mutating func received(buffered: Int) -> Action {
        switch state {
        case .reading:
            return .parse
        case .awaitingResponse(var flow, nil):
            guard buffered > limits.maxBufferedInput, flow.paused == nil else { return .buffer }
            flow.paused = .inputBuffered
            state = .awaitingResponse(flow, ending: nil)
            return .buffer
        case .streaming(let pulled, var flow, nil):
            guard buffered > limits.maxBufferedInput, flow.paused == nil else { return .buffer }
            flow.paused = .inputBuffered
            state = .streaming(pulled: pulled, flow, ending: nil)
            return .buffer
        case .awaitingResponse, .streaming, .closing, .handshaking, .lingering, .closed:
            return .discard
        }
    }

    /// The parser is between requests and `unsent` bytes of answers wait, even after sending what the socket took:
    /// over ``Limits/maxQueuedAnswers`` no further request is parsed and reading pauses until the client takes
    /// them (RFC 9112 §9.3.2). Returns whether it paused.
    package mutating func pauseIfAnswersQueued(unsent: Int) -> Bool {
        guard answersOverBound(unsent: unsent), case .reading(var flow) = state else { return false }
        flow.paused = .answersQueued
        state = .reading(flow)
        return true
    }

    /// The client closed its sending side. `unsent`: answers wait to be sent; `midRequest`: part of a request
    /// was parsed, and it can never complete now.
    package mutating func peerClosed(unsent: Bool, midRequest: Bool) -> Action {
        switch state {
        case .reading(let flow), .closing(let flow, _):
            guard unsent, !midRequest else { return .close }  // nothing in progress, or a request never completed
            state = .closing(flow, peerClosed: true)
            return .none
        case .awaitingResponse(let flow, _):
            state = .awaitingResponse(flow, ending: .peerClosed)
            return .none
        case .streaming(let pulled, let flow, _):
            state = .streaming(pulled: pulled, flow, ending: .peerClosed)
            // A pulled body is open-ended (server-sent events): a client that stopped sending is leaving, and
            // nothing could follow the body anyway. It ends now rather than at its next write.
            return pulled ? .finishStream : .none
        case .handshaking, .lingering:
            return .close
        case .closed:
            return .none
        }
    }

    // MARK: Answers

    /// The handler of the request just parsed answers later; requests behind it wait. Only when no answer is
    /// pending (`.none`); anywhere else the answer could not be framed, so `.close`.
    package mutating func awaitAnswer() -> Action {
        guard case .reading(let flow) = state else { return .close }
        answeredRequest = true
        state = .awaitingResponse(flow, ending: draining ? .draining : nil)
        return .none
    }

    /// The awaited answer came: whether to write it (false when none is awaited: the connection closed meanwhile).
    /// The connection reads on after it, or closes after it when it was told to meanwhile.
    package mutating func answerArrived() -> Bool {
        guard case .awaitingResponse(let flow, let ending) = state else { return false }
        state = ending.map { .closing(flow, peerClosed: $0 == .peerClosed) } ?? .reading(flow)
        return true
    }

    /// The response just written has a streamed body; `pulled`: it comes from a pulled source, not a producer.
    /// `.none`, or `.close` when another response is still under way (the body could not be framed).
    package mutating func startedStreaming(pulled: Bool) -> Action {
        switch state {
        case .reading(let flow):
            answeredRequest = true
            state = .streaming(pulled: pulled, flow, ending: draining ? .draining : nil)
        case .closing(let flow, let peerClosed):
            state = .streaming(pulled: pulled, flow, ending: peerClosed ? .peerClosed : .draining)
        case .awaitingResponse, .streaming, .handshaking, .lingering, .closed:
            return .close
        }
        return .none
    }

    /// The response is all queued (a whole one, or the end of a streamed body); `keepAlive`: it lets the
    /// connection stay open. Returns whether the next request may be read; otherwise the connection is closing.
    package mutating func finishedResponse(keepAlive: Bool) -> Bool {
        answeredRequest = true
        switch state {
        case .reading(let flow):
            guard keepAlive, !draining else {
                state = .closing(flow, peerClosed: false)
                return false
            }
            return true
        case .streaming(_, let flow, let ending), .awaitingResponse(let flow, let ending):
            if keepAlive, ending == nil {
                state = .reading(flow)
                return true
            }
            state = .closing(flow, peerClosed: ending == .peerClosed)
            return false
        case .closing, .handshaking, .lingering, .closed:
            return false
        }
    }

    /// The request cannot be answered normally (a malformed request, a limit, a request timeout): `.answerError`
    /// when no other response is under way (the error is the last answer), else `.close`, since nothing
    /// well-framed can follow a response cut short.
    package func failed() -> Action {
        switch state {
        case .reading, .closing: .answerError
        case .handshaking, .awaitingResponse, .streaming, .lingering, .closed: .close
        }
    }

    // MARK: Output

    /// Everything queued was sent: a closing connection now lingers.
    package mutating func flushed() -> Action {
        guard case .closing(_, let peerClosed) = state else { return .none }
        state = .lingering
        return .linger(thenClose: peerClosed)
    }

    /// After a readiness event, with `unsent` bytes of answers left: once reading paused and the client has taken
    /// enough of its answers, `.parseBuffered` (the requests that waited are answered first, then reading
    /// resumes). While a response is being made its end resumes reading instead.
    package func answersTaken(unsent: Int) -> Action {
        switch state {
        case .reading(let flow), .closing(let flow, _):
            flow.paused != nil && !answersOverBound(unsent: unsent) ? .parseBuffered : .none
        case .handshaking, .awaitingResponse, .streaming, .lingering, .closed:
            .none
        }
    }

    /// Reading resumes when it paused and the answers left (`unsent` bytes) are within the bound: returns
    /// whether it did, so the socket is read now.
    package mutating func resumeReading(unsent: Int) -> Bool {
        guard readingIsPaused, !answersOverBound(unsent: unsent) else { return false }
        updateFlow { $0.paused = nil }
        return true
    }

    // MARK: Ending

    /// A graceful shutdown began. `midRequest`: part of a request is buffered or parsed; `unsent`: answers wait
    /// to be sent. A connection that has not had a request answered yet, or is reading one, reads on: that request
    /// is answered (with `Connection: close`, then the connection closes) within the request-head timeout
    /// (`.awaitLastRequest`), since its client sent it, or is about to, before it could know of the drain, and
    /// closing it would reset that client. A keep-alive connection idle after its answers closes now (after
    /// sending what is queued), a busy one after its response; a stream is asked to end. A connection still in
    /// its TLS handshake finishes it and is then served the same way.
    package mutating func drain(midRequest: Bool, unsent: Bool) -> Action {
        switch state {
        case .reading(let flow):
            draining = true
            if midRequest || !answeredRequest { return .awaitLastRequest }
            if !unsent { return .close }
            state = .closing(flow, peerClosed: false)
            return .none
        case .closing:
            draining = true
            return midRequest || unsent ? .none : .close
        case .awaitingResponse(let flow, let ending):
            draining = true
            state = .awaitingResponse(flow, ending: ending ?? .draining)
            return .none
        case .streaming(let pulled, let flow, let ending):
            draining = true
            state = .streaming(pulled: pulled, flow, ending: ending ?? .draining)
            // A pulled source has no task to cancel: its body ends now.
            return pulled ? .finishStream : .cancelProducer
        case .handshaking:
            draining = true
            return .awaitLastRequest
        case .lingering, .closed:
            return .none
        }
    }

    /// The connection closes now.
    package mutating func close() {
        state = .closed
    }

    private mutating func updateFlow(_ change: (inout Flow) -> Void) {
        switch state {
        case .reading(var flow):
            change(&flow)
            state = .reading(flow)
        case .awaitingResponse(var flow, let ending):
            change(&flow)
            state = .awaitingResponse(flow, ending: ending)
        case .streaming(let pulled, var flow, let ending):
            change(&flow)
            state = .streaming(pulled: pulled, flow, ending: ending)
        case .closing(var flow, let peerClosed):
            change(&flow)
            state = .closing(flow, peerClosed: peerClosed)
        case .handshaking, .lingering, .closed:
            break
        }
    }
}
