import Foundation
import ViewHostLocking

/// Runs blocking work (a read with a deadline, waiting for a child process) on a thread of its own, never on the
/// caller's task.
///
/// Swift's cooperative pool has one thread per core: two cores here. A test that blocks one of them for seconds
/// (waiting for a server's readiness line, for a killed server to exit) stalls every in-process server whose
/// handlers run on that pool, and other suites' streams then time out for no fault of theirs.
public enum OffThread {
    /// The result of `work`, computed on a new thread with `stackSize` bytes of stack (nil: the system's default).
    ///
    /// A caller cancelled while it waits (its test's time limit) gets `CancellationError` at once; `work` goes on
    /// to its own end on its thread, and its result is dropped. Without that, a test waiting on work that never
    /// ends kept Swift Testing from ending the test at its time limit, and so the whole run from ending.
    public static func run<Result: Sendable>(
        stackSize: Int? = 256 * 1024, _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        let waiter = Locked<CheckedContinuation<Result, any Error>?>(nil)
        let cancelled = Locked(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let alreadyCancelled = cancelled.withLock { cancelled -> Bool in
                    if !cancelled { waiter.withLock { $0 = continuation } }
                    return cancelled
                }
                if alreadyCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let thread = Thread {
                    let result = Swift.Result { try work() }
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
                if let stackSize { thread.stackSize = stackSize }
                thread.start()
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }
}
