import Foundation

/// Runs blocking work (a read with a deadline, waiting for a child process) on a thread of its own, never on the
/// caller's task.
///
/// Swift's cooperative pool has one thread per core: two cores here. A test that blocks one of them for seconds
/// (waiting for a server's readiness line, for a killed server to exit) stalls every in-process server whose
/// handlers run on that pool, and other suites' streams then time out for no fault of theirs.
public enum OffThread {
    /// The result of `work`, computed on a new thread with `stackSize` bytes of stack (nil: the system's default).
    public static func run<Result: Sendable>(
        stackSize: Int? = 256 * 1024, _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try work() })
            }
            if let stackSize { thread.stackSize = stackSize }
            thread.start()
        }
    }
}
