import Logging
import Synchronization

/// The state of one streamed response body, owned by its connection's loop.
final class BodyStreamState {
    let chunked: Bool
    let keepAlive: Bool
    /// gzip for this body, flushed after every write so no event waits in the compressor.
    let deflater: GzipDeflater?
    let closedFlag = StreamClosedFlag()
    var task: Task<Void, Never>?
    /// A writer waiting for the backlog to fall under the low-water mark.
    var pendingWrite: CheckedContinuation<Void, any Error>?
    /// The pulled source of a ``HTTPResponseBody/source(_:)`` body (instead of `task`), and its trigger.
    var source: (any HTTPBodySource)?
    var trigger: HTTPBodyTrigger?
    /// The source signalled while the backlog was over the low-water mark: pull once it drains.
    var wantsPull = false
    /// A pull is running (a flush inside it must not start another).
    var isPulling = false
    /// When the source last produced bytes or was asked for a heartbeat.
    var lastWrite: ContinuousClock.Instant?

    init(chunked: Bool, keepAlive: Bool, deflater: GzipDeflater?) {
        self.chunked = chunked
        self.keepAlive = keepAlive
        self.deflater = deflater
    }

    /// Asks the producer to stop (drain); it ends the body normally.
    func cancelProducer() {
        task?.cancel()
    }

    /// The connection is gone: stop the producer and fail its waiting write.
    func connectionClosed() {
        closedFlag.set()
        task?.cancel()
        pendingWrite?.resume(throwing: HTTPBodyWriterError.connectionClosed)
        pendingWrite = nil
        finishSource()
    }

    /// Tells a pulled source, once, that the body is over.
    func finishSource() {
        guard let source else { return }
        self.source = nil
        trigger?.close()
        trigger = nil  // its pull closure refers back to this state
        source.finish()
    }

    /// When an idle source is next due for a heartbeat.
    var idleDeadline: ContinuousClock.Instant? {
        guard let source, let interval = source.idleInterval, let lastWrite else { return nil }
        return lastWrite.advanced(by: interval)
    }
}

@available(*, unavailable)
extension BodyStreamState: Sendable {}

/// Set once a stream's connection closed; read from any thread.
final class StreamClosedFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() {
        value.store(true, ordering: .releasing)
    }
}

/// The writer's way into its connection: each write hops onto the connection's loop.
struct ConnectionBodySink: BodySink {
    let connection: LoopBound<Connection>
    let state: LoopBound<BodyStreamState>
    let closed: StreamClosedFlag

    func write(_ bytes: [UInt8], completion: CheckedContinuation<Void, any Error>) {
        guard !closed.isSet else {
            completion.resume(throwing: HTTPBodyWriterError.connectionClosed)
            return
        }
        let connection = connection
        let state = state
        let transfer = UncheckedContinuation(completion)
        connection.loop.execute {
            connection.value.streamWrite(bytes, for: state.value, completion: transfer.continuation)
        }
    }

    var isClosed: Bool { closed.isSet }
}

/// Carries a continuation into a loop task. `CheckedContinuation` is Sendable; this only names the intent.
struct UncheckedContinuation: Sendable {
    let continuation: CheckedContinuation<Void, any Error>

    init(_ continuation: CheckedContinuation<Void, any Error>) {
        self.continuation = continuation
    }
}

extension Connection {
    /// Starts the producer of a streamed body on a task of its own.
    func startStream(_ body: HTTPBodyStream, chunked: Bool, keepAlive: Bool, deflater: GzipDeflater?) {
        let state = BodyStreamState(chunked: chunked, keepAlive: keepAlive, deflater: deflater)
        guard case .none = machine.startedStreaming(pulled: false) else {
            close()  // another response is under way: a bug, but nothing well-framed could follow
            return
        }
        stream = state
        let bound = LoopBound(self, loop: loop)
        let boundState = LoopBound(state, loop: loop)
        let writer = HTTPBodyWriter(
            sink: ConnectionBodySink(connection: bound, state: boundState, closed: state.closedFlag))
        let loop = loop
        let logger = loop.server.logger
        state.task = Task {
            do {
                try await body.produce(writer)
            } catch is CancellationError {
            } catch HTTPBodyWriterError.connectionClosed {
            } catch {
                logger.warning("response stream failed", metadata: ["error": "\(error)"])
            }
            loop.execute { bound.value.finishStream(boundState.value) }
        }
    }

    /// Starts a pulled body: the source gets its trigger, then is asked for its first part.
    func startSource(_ source: any HTTPBodySource, chunked: Bool, keepAlive: Bool, deflater: GzipDeflater?) {
        let state = BodyStreamState(chunked: chunked, keepAlive: keepAlive, deflater: deflater)
        guard case .none = machine.startedStreaming(pulled: true) else {
            close()  // another response is under way: a bug, but nothing well-framed could follow
            source.finish()
            return
        }
        stream = state
        state.source = source
        state.lastWrite = loop.now
        let bound = LoopBound(self, loop: loop)
        let boundState = LoopBound(state, loop: loop)
        let loop = loop
        let trigger = HTTPBodyTrigger {
            loop.execute { bound.value.pullSource(boundState.value, idle: false) }
        }
        state.trigger = trigger
        source.start(trigger)
        // The first pull goes through the loop's queue, not from here: this runs inside the parsing of the
        // request, and a source that ends at once must not finish the response (and parse on) from within it.
        trigger.signal()
    }

    /// Asks a pulled source for what it has and queues it, unless the client is behind (then once it catches up).
    func pullSource(_ state: BodyStreamState, idle: Bool) {
        guard stream === state, let source = state.source, !state.isPulling
        else { return }
        guard outbound.count - outboundSent <= Self.streamLowWater else {
            state.wantsPull = true
            // No heartbeat is due while bytes wait to be sent (and the timer sweep must not retry one every turn).
            if idle { state.lastWrite = loop.now }
            return
        }
        state.wantsPull = false
        state.isPulling = true
        state.trigger?.willPull()
        let part = source.next(idle: idle)
        state.isPulling = false
        guard let part else {
            finishStream(state)
            return
        }
        if !part.isEmpty || idle { state.lastWrite = loop.now }
        if !part.isEmpty {
            takeSharedOutbound()
            append(state.deflater?.compress(part) ?? part, for: state)
            flush()
        }
        if !isClosed { scheduleTimers() }
    }

    /// Queues one part of a streamed body; the writer resumes once the backlog is under the low-water mark.
    func streamWrite(_ bytes: [UInt8], for state: BodyStreamState, completion: CheckedContinuation<Void, any Error>) {
        guard stream === state else {
            completion.resume(throwing: HTTPBodyWriterError.connectionClosed)
            return
        }
        takeSharedOutbound()
        append(state.deflater?.compress(bytes) ?? bytes, for: state)
        state.pendingWrite = completion
        flush()
        if isClosed { return }  // close() failed the pending write
        resumeStreamWriterIfBelowLowWater()
        scheduleTimers()
    }

    /// Queues body bytes, as a chunk when chunked (never an empty one, which would end the body).
    private func append(_ bytes: [UInt8], for state: BodyStreamState) {
        guard !bytes.isEmpty else { return }
        if state.chunked {
            HTTPResponseWriter.appendChunk(bytes, to: &outbound)
        } else {
            outbound.append(contentsOf: bytes)
        }
    }

    /// Resumes a waiting writer, or pulls a source that signalled meanwhile, when few enough bytes are unsent.
    func resumeStreamWriterIfBelowLowWater() {
        guard let state = stream, outbound.count - outboundSent <= Self.streamLowWater else { return }
        if let pending = state.pendingWrite {
            state.pendingWrite = nil
            pending.resume()
        }
        if state.wantsPull, !state.isPulling { pullSource(state, idle: false) }
    }

    /// A pulled source's heartbeat, when it has been silent for its idle interval; returns its next due time.
    func checkStreamIdle(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let state = stream, let due = state.idleDeadline else { return nil }
        if now >= due { pullSource(state, idle: true) }
        guard stream === state else { return nil }
        return state.idleDeadline
    }

    /// The producer returned: end the body and carry on with the connection.
    func finishStream(_ state: BodyStreamState) {
        guard stream === state else { return }
        stream = nil
        state.finishSource()
        if let pending = state.pendingWrite {
            state.pendingWrite = nil
            pending.resume()
        }
        takeSharedOutbound()
        if let deflater = state.deflater { append(deflater.finish(), for: state) }
        if state.chunked { outbound.append(contentsOf: HTTPResponseWriter.lastChunk) }
        finishResponse(keepAlive: state.keepAlive && !loop.server.isDraining)  // unless told to close meanwhile
        processInbound()
        flush()
        resumeReadingIfPaused()
        if !isClosed { scheduleTimers() }
    }
}
