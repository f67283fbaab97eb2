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
        activity = .streaming(state)
        let bound = LoopBound(self, loop: loop)
        let boundState = LoopBound(state, loop: loop)
        let writer = HTTPBodyWriter(sink: ConnectionBodySink(connection: bound, state: boundState, closed: state.closedFlag))
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

    /// Queues one part of a streamed body; the writer resumes once the backlog is under the low-water mark.
    func streamWrite(_ bytes: [UInt8], for state: BodyStreamState, completion: CheckedContinuation<Void, any Error>) {
        guard case .streaming(let current) = activity, current === state, !isClosed else {
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

    /// Resumes a waiting writer when few enough bytes are unsent.
    func resumeStreamWriterIfBelowLowWater() {
        guard case .streaming(let state) = activity, let pending = state.pendingWrite,
            outbound.count - outboundSent <= Self.streamLowWater
        else { return }
        state.pendingWrite = nil
        pending.resume()
    }

    /// The producer returned: end the body and carry on with the connection.
    private func finishStream(_ state: BodyStreamState) {
        guard case .streaming(let current) = activity, current === state, !isClosed else { return }
        if let pending = state.pendingWrite {
            state.pendingWrite = nil
            pending.resume()
        }
        takeSharedOutbound()
        if let deflater = state.deflater { append(deflater.finish(), for: state) }
        if state.chunked { outbound.append(contentsOf: HTTPResponseWriter.lastChunk) }
        finishResponse(keepAlive: state.keepAlive && !closeWhenFlushed && !loop.server.isDraining)
        processInbound()
        flush()
        resumeReadingIfPaused()
        if !isClosed { scheduleTimers() }
    }
}
