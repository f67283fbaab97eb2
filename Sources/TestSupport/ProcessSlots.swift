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
        var nextTicket = 0
        var waiting: [(ticket: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        /// Tickets cancelled before they joined `waiting` (the cancellation handler ran first).
        var cancelled: Set<Int> = []
    }

    private let state: Locked<State>

    /// Slots for `count` children at once (at least one).
    public init(count: Int) {
        state = Locked(State(free: max(1, count)))
    }

    /// Twice the number of cores: enough to keep the machine busy, few enough that no child waits long for one.
    public static var perMachine: Int { max(2, ProcessInfo.processInfo.activeProcessorCount * 2) }

    /// Waits until a slot is free and takes it; first come, first served. A test cancelled while it waits (its time
    /// limit reached) stops waiting and throws `CancellationError`, so a test that never gets a slot fails instead
    /// of holding up the whole run.
    public func acquire() async throws {
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            return state.nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.cancelled.remove(ticket) != nil { return nil }
                    guard state.free > 0 else {
                        state.waiting.append((ticket, continuation))
                        return false
                    }
                    state.free -= 1
                    return true
                }
                switch outcome {
                case nil: continuation.resume(throwing: CancellationError())
                case true?: continuation.resume()
                case false?: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) else {
                    state.cancelled.insert(ticket)  // not waiting yet, or already given a slot (then never read)
                    return nil
                }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back: to the longest waiting test, if any.
    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
