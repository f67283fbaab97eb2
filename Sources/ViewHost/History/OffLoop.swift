import Dispatch

/// Runs work that blocks (a store's read, a long replay) on threads of its own, never an event loop's nor the
/// cooperative pool's: a history read may take a network round trip (PostgreSQL) or a few milliseconds of replay.
enum OffLoop {
    private static let queue = DispatchQueue(label: "viewhost.history", attributes: .concurrent)

    /// `work`'s result, computed on the history queue.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
