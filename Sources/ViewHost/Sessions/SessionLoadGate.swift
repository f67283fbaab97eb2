import Foundation
import ViewModelCore

/// One load of a session at a time on this node. In a cluster a load takes the session's lease (a new epoch), so
/// two requests that load the same session at once (a post and a stream's reconnect, both handed back by a node
/// that stops) took it over twice: the second take-over's epoch fenced the writes of the copy the first one kept,
/// and a request applied there was answered 503. Behind the gate, the second load finds the first one's copy in
/// memory and uses it. Loads run on storage threads, which may block; different sessions do not wait for each
/// other.
final class SessionLoadGate: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var loading: Set<SessionID> = []

    /// Runs `body` for session `id` once no other load of it runs here (blocks the calling storage thread).
    func run<T>(_ id: SessionID, _ body: () throws -> T) rethrows -> T {
        condition.lock()
        while loading.contains(id) { condition.wait() }
        loading.insert(id)
        condition.unlock()
        defer {
            condition.lock()
            loading.remove(id)
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
