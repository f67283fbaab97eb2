import Foundation
import ViewHostLocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed response (an event stream), read as it arrives: its head, then its body in chunks.
///
/// `URLSession.bytes(for:)` does not exist in swift-corelibs-foundation (Linux), so this uses what both
/// Foundations have: a data task whose `URLSessionDataDelegate` yields each chunk into an `AsyncThrowingStream`.
/// Each connection has its own `URLSession` (the delegate belongs to the session), invalidated when the task
/// ends, which releases the delegate. Ending the consumer's iteration cancels the task.
///
/// `@unchecked Sendable`: the delegate's state is only the continuation (itself `Sendable`) and a flag behind a
/// lock.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What the connection delivers: the head first, then body chunks.
    enum Part: Sendable {
        case head(HTTPURLResponse)
        case body(Data)
    }

    private let continuation: AsyncThrowingStream<Part, any Error>.Continuation
    private let headSent = Locked(false)

    private init(continuation: AsyncThrowingStream<Part, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Starts `request` and returns its parts as they arrive; the stream finishes when the response ends, and
    /// throws when the connection fails.
    static func open(_ request: URLRequest, configuration: URLSessionConfiguration) -> AsyncThrowingStream<
        Part, any Error
    > {
        let (parts, continuation) = AsyncThrowingStream.makeStream(of: Part.self)
        let delegate = EventStreamConnection(continuation: continuation)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        // Off this thread: a consumer's cancellation runs this handler under the runtime's task lock, and
        // `cancel()` waits for the session's queue (AnswerCollector says why that can deadlock).
        continuation.onTermination = { _ in DispatchQueue.global().async { task.cancel() } }
        task.resume()
        session.finishTasksAndInvalidate()
        return parts
    }

    /// The head, once: from the first chunk or the completion, whichever comes first (`didReceive response`
    /// is not used, as its completion handler's type differs between the two Foundations).
    private func sendHead(of task: URLSessionTask) {
        guard
            headSent.withLock({ sent in
                defer { sent = true }; return !sent
            })
        else { return }
        if let response = task.response as? HTTPURLResponse { continuation.yield(.head(response)) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        sendHead(of: dataTask)
        continuation.yield(.body(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: error)
        } else {
            sendHead(of: task)
            continuation.finish()
        }
    }
}
