/// The timeouts of one connection as a pure state machine (after hummingbird's
/// `HTTPConnectionStateHandler.StateMachine`): the connection reports what happened, with the time, and asks
/// for its next deadline and what to do when it passes. No I/O and no clock inside, so tests drive it with a
/// manual clock.
package struct ConnectionTimeouts<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// What the connection is waiting for.
    package enum Phase: Equatable, Sendable {
        /// A TLS connection accepted at `since` whose handshake is not finished; it must be within `handshake`.
        case handshaking(since: Instant)
        /// No request in progress; keep-alive idle since then.
        case idle(since: Instant)
        /// Part of a request head arrived at `since`; the head must complete within `headerRead`.
        case readingHead(since: Instant)
        /// The head completed at `since`; the body must complete within `bodyRead`.
        case readingBody(since: Instant)
        /// A handler or a streamed body is producing the response: the client owes nothing.
        case responding
        /// The server closed its side at `since` and discards input until `lingeringClose` passes.
        case lingering(since: Instant)
    }

    /// What to do once a deadline passed.
    package enum Action: Equatable, Sendable {
        case none
        /// Answer `408 Request Timeout`, then close.
        case requestTimeout
        /// Close without answering.
        case close
        /// Close with a reset: the client stopped reading, so unsent bytes are dropped instead of left to the
        /// kernel (nginx's `reset_timedout_connection`).
        case abort
    }

    /// The bounds each phase is held to.
    package let timeouts: HTTPTimeouts
    /// What the connection is waiting for now, and since when.
    package private(set) var phase: Phase
    /// Since when unsent response bytes have made no progress.
    package private(set) var writeStalledSince: Instant?
    /// When a graceful shutdown began: from then an idle connection waits for its last request no longer than
    /// the request-head timeout (not the keep-alive one), and is then closed silently.
    package private(set) var drainingSince: Instant?
    /// Whether a response handed over is still being sent (some bytes were left unsent and are not yet drained).
    /// Until it is, the keep-alive and next-head deadlines wait: a client reading a large response slowly but
    /// steadily is not idle (only the write deadline applies), and they start when the last byte is sent.
    package var isSending: Bool { writeStalledSince != nil }

    /// - Parameters:
    ///   - timeouts: The durations.
    ///   - now: When the connection was accepted.
    ///   - handshaking: Whether a TLS handshake comes first.
    package init(timeouts: HTTPTimeouts, now: Instant, handshaking: Bool = false) {
        self.timeouts = timeouts
        self.phase = handshaking ? .handshaking(since: now) : .idle(since: now)
    }

    /// The TLS handshake finished: the connection is idle until the first request byte.
    package mutating func finishedHandshake(at now: Instant) {
        if case .handshaking = phase { phase = .idle(since: now) }
    }

    /// A graceful shutdown began: an idle connection's wait for a request is cut to the request-head timeout.
    package mutating func drainBegan(at now: Instant) {
        if drainingSince == nil { drainingSince = now }
    }

    /// Request bytes arrived: an idle connection starts the head deadline.
    package mutating func receivedBytes(at now: Instant) {
        if case .idle = phase { phase = .readingHead(since: now) }
    }

    /// The head is complete and a body follows.
    package mutating func receivedHead(at now: Instant) {
        if case .readingHead = phase { phase = .readingBody(since: now) }
    }

    /// A whole request arrived; its response is being made.
    package mutating func receivedRequest() {
        if case .lingering = phase { return }
        phase = .responding
    }

    /// The response was handed over; `pipelined` when bytes of a next request are already buffered.
    package mutating func finishedResponse(at now: Instant, pipelined: Bool) {
        if case .lingering = phase { return }
        phase = pipelined ? .readingHead(since: now) : .idle(since: now)
    }

    /// The server closed its side and now only drains input.
    package mutating func startedLingering(at now: Instant) {
        phase = .lingering(since: now)
    }

    /// A write left bytes unsent; the write deadline counts from the first stall, not the latest.
    package mutating func writeStalled(at now: Instant) {
        if writeStalledSince == nil { writeStalledSince = now }
    }

    /// A write made progress; `drained` when nothing is left to send.
    package mutating func writeProgressed(at now: Instant, drained: Bool) {
        if drained, isSending {
            switch phase {
            case .idle: phase = .idle(since: now)
            case .readingHead: phase = .readingHead(since: now)
            default: break
            }
        }
        writeStalledSince = drained ? nil : now
    }

    /// The earliest time something expires, or nil when nothing can.
    package var deadline: Instant? {
        let phaseDeadline: Instant? =
            switch phase {
            case .handshaking(let since): since.advanced(by: timeouts.handshake)
            case .idle where isSending, .readingHead where isSending: nil
            case .idle(let since): idleEnd(since: since)
            case .readingHead(let since): since.advanced(by: timeouts.headerRead)
            case .readingBody(let since): since.advanced(by: timeouts.bodyRead)
            case .lingering(let since): since.advanced(by: timeouts.lingeringClose)
            case .responding: nil
            }
        let writeDeadline = writeStalledSince?.advanced(by: timeouts.write)
        switch (phaseDeadline, writeDeadline) {
        case (let phase?, let write?): return min(phase, write)
        case (let phase?, nil): return phase
        case (nil, let write?): return write
        case (nil, nil): return nil
        }
    }

    /// What to do at `now`.
    package func action(at now: Instant) -> Action {
        if let stalled = writeStalledSince, now >= stalled.advanced(by: timeouts.write) { return .abort }
        switch phase {
        case .idle where isSending, .readingHead where isSending:
            return .none
        case .handshaking(let since):
            return now >= since.advanced(by: timeouts.handshake) ? .close : .none
        case .idle(let since):
            return now >= idleEnd(since: since) ? .close : .none
        case .readingHead(let since):
            return now >= since.advanced(by: timeouts.headerRead) ? .requestTimeout : .none
        case .readingBody(let since):
            return now >= since.advanced(by: timeouts.bodyRead) ? .requestTimeout : .none
        case .lingering(let since):
            return now >= since.advanced(by: timeouts.lingeringClose) ? .close : .none
        case .responding:
            return .none
        }
    }

    /// How long a draining server waits for the first bytes of a request on a connection that has none yet (at
    /// most the head timeout): enough for a request a client sent just as the drain began to arrive and be
    /// answered, not so long that a connection opened ahead of need (a browser's preconnect) holds the server's exit
    /// and, in a take-over, the store the new process waits for (it held both the head timeout's 10 s).
    package static var drainGrace: Duration { .seconds(2) }

    /// When an idle connection idle since `since` is closed: after the keep-alive timeout, or sooner once draining.
    private func idleEnd(since: Instant) -> Instant {
        let idle = since.advanced(by: timeouts.idle)
        guard let drainingSince else { return idle }
        return min(idle, drainingSince.advanced(by: min(timeouts.headerRead, Self.drainGrace)))
    }
}
