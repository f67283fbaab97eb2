/// Writes the parts of a streamed response body to its connection, with backpressure.
///
/// Contract: ``write(_:)`` returns once the bytes are handed to the kernel, or once the connection's
/// unsent backlog is under the low-water mark; it throws ``HTTPBodyWriterError/connectionClosed`` when the
/// client is gone. A producer that awaits each write can therefore never grow server memory beyond one write.
/// Calls may come from any task, one at a time.
public final class HTTPBodyWriter: Sendable {
    private let sink: any BodySink

    init(sink: any BodySink) {
        self.sink = sink
    }

    /// Sends one part of the body (one chunk on the wire). Empty parts are ignored.
    /// - Parameter bytes: The content to send.
    /// - Throws: `HTTPBodyWriterError.connectionClosed` when the connection closed before the bytes were sent.
    public func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            sink.write(bytes, completion: continuation)
        }
    }

    /// Whether the connection is already closed, so producing more is pointless.
    public var isClosed: Bool { sink.isClosed }
}

/// Why a body write failed.
public enum HTTPBodyWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The client went away, a write stalled past the write timeout, or the server closed the connection.
    case connectionClosed

    /// One sentence for the log.
    public var description: String { "The connection closed before the response body was sent." }
}

/// Where a writer sends its bytes: the connection, on its event loop.
protocol BodySink: Sendable {
    func write(_ bytes: [UInt8], completion: CheckedContinuation<Void, any Error>)
    var isClosed: Bool { get }
}
