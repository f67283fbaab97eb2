import Dispatch
import ViewHostLocking

/// The registry's own work on the store that no request waits for (loading sessions whose timers fell due, claiming
/// orphaned ones, expiring idle ones, writing last-access times), shut before the store closes.
///
/// Why: those loops ran until the registry was released, so one could read the store while `close()` closed it.
/// GRDB's pool is not to be closed under a read in progress; ThreadSanitizer saw a server's due-session load race
/// the pool's close at SIGTERM (exit 66 in two process tests on a loaded machine).
final class BackgroundStoreWork: Sendable {
    private let state = Locked(false)  // closed
    private let running = DispatchGroup()

    /// Runs `work` unless ``close()`` began; returns whether it ran. Entering is decided under the same lock that
    /// closes, so a work either counts for ``close()``'s wait or does not start.
    @discardableResult
    func run(_ work: () -> Void) -> Bool {
        let entered = state.withLock { closed -> Bool in
            guard !closed else { return false }
            running.enter()
            return true
        }
        guard entered else { return false }
        defer { running.leave() }
        work()
        return true
    }

    /// Whether ``close()`` began: a loop that sees it ends.
    var isClosed: Bool { state.withLock { $0 } }

    /// Lets no new work start and waits for the work under way to end.
    func close() {
        state.withLock { $0 = true }
        running.wait()
    }
}
