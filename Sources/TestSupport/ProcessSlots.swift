import Foundation
import ViewHostLocking

/// A bound on how many child processes of one kind the tests of one process run at once: a test waits for a slot
/// before its child starts (suspended, never blocking a thread) and the slot is given back when the child is reaped.
///
/// Swift Testing starts every test at once. Without a bound, the suites that run the real binary had up to 42
/// `viewhost` processes alive together on this 2-core machine (sampled every 0.5 s during `swift test`), beside the
/// in-process servers of other suites, whose reads then timed out. The slots are shared by every test of the
/// process, so they are one instance per kind (``ServerProcess`` holds them); they hold no test's data.
public final class ProcessSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// Slots for `count` children at once (at least one).
    public init(count: Int) {
        state = Locked(State(free: max(1, count)))
    }

    /// Twice the number of cores: enough to keep the machine busy, few enough that no child waits long for one.
    public static var perMachine: Int { max(2, ProcessInfo.processInfo.activeProcessorCount * 2) }

    /// Waits until a slot is free and takes it; first come, first served.
    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: to the longest waiting test, if any.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
