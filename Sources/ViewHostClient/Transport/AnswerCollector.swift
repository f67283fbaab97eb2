import Foundation
import ViewHostLocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects each answer of a transport's `URLSession` as it arrives, and cuts one off once it is larger than the
/// client's bound (``ViewHostClient/Configuration/maxAnswerBytes``): `URLSession.data(for:)` would hold the whole of
/// a 200 MB answer in memory (838 MB of RSS in `viewhost client get`) before the client could look at it.
///
/// The delegate of one `URLSession`, shared by its requests: each is registered by its task's identifier before
/// it starts. `@unchecked Sendable`: its only state is behind a lock.
final class AnswerCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// An answer cut off at the bound.
    struct TooLarge: Error {
        let limit: Int
    }

    private struct Pending {
        let continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var data = Data()
    }

    private let limit: Int
    private let pending = Locked<[Int: Pending]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Runs `request` on `session` (whose delegate this is) and returns its body and head.
    func data(for request: URLRequest, on session: URLSession) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
                task.resume()
            }
        } onCancel: {
            // Not here: the runtime holds this task's status lock while it runs the handler, and `cancel()` waits
            // for the session's queue, which may be waiting for that lock to resume this very task (a deadlock of
            // both threads, seen in FoundationNetworking's own `data(for:)`).
            DispatchQueue.global().async { task.cancel() }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // A declared length past the bound is cut at the first chunk, before Foundation buffers more of it.
        let declared = dataTask.response?.expectedContentLength ?? -1
        let cut = pending.withLock { pending -> Pending? in
            guard let received = pending[dataTask.taskIdentifier]?.data.count else { return nil }
            guard received + data.count <= limit, declared <= Int64(limit) else {
                return pending.removeValue(forKey: dataTask.taskIdentifier)
            }
            // In place: a copy of the entry would copy the body received so far with every chunk.
            pending[dataTask.taskIdentifier]?.data.append(data)
            return nil
        }
        guard let cut else { return }
        dataTask.cancel()
        cut.continuation.resume(throwing: TooLarge(limit: limit))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.continuation.resume(throwing: error)
        } else if let response = task.response {
            entry.continuation.resume(returning: (entry.data, response))
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
