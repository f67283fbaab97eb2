import Foundation

/// Runs blocking work (a read with a deadline, waiting for a child process) on a thread of its own, never on the
/// caller's task.
///
/// Swift's cooperative pool has one thread per core: two cores here. A test that blocks one of them for seconds
/// (waiting for a server's readiness line, for a killed server to exit) stalls every in-process server whose
/// handlers run on that pool, and other suites' streams then time out for no fault of theirs.
public enum OffThread {
    /// The result of `work`, computed on a new thread.
    public static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try work() })
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }
}
