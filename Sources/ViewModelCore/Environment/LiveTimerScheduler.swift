import Foundation
import ViewHostLocking

/// The production scheduler: one min-heap of deadlines for the whole process, served by one task that sleeps
/// until the earliest deadline (and is woken when an earlier one arrives). Delays are real time: a session divides
/// its simulated delays by its simulation speed before it schedules them.
///
/// Timers fire at most ``coalescing`` late, never early: the task sleeps until the earliest deadline plus that slack
/// and then fires everything due. Under load (thousands of chat events a second, each with timers a few
/// microseconds apart) that turns one wake-up and one sleeping task per timer into at most one per millisecond.
public final class LiveTimerScheduler: TimerScheduling {
    /// How late a timer may fire so that timers close together fire in one wake-up.
    public static let coalescing: Duration = .milliseconds(1)

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: Int
        let action: @Sendable () -> Void
    }

    private struct State {
        var heap: [Entry] = []
        var cancelled: Set<Int> = []
        var nextID = 0
        var sleeper: Task<Void, Never>?
        var sleepingUntil: ContinuousClock.Instant?
        var idleWaiter: CheckedContinuation<Void, Never>?
        var stopped = false
    }

    /// The state, in a box of its own so the runner task does not keep the scheduler alive.
    private final class Core: Sendable {
        let state = Locked(State())
    }

    private let core = Core()

    /// Creates a scheduler and starts its task; the task ends when the scheduler is released or stopped.
    public init() {
        let core = core
        Task.detached { await Self.run(core) }
    }

    deinit {
        stop()
    }

    /// The wall clock.
    public var now: Date { Date() }

    /// Runs `action` on the scheduler's task once `delay` has passed on the continuous clock (a negative delay as
    /// zero); the timer returned cancels it.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let deadline = ContinuousClock.now.advanced(by: max(delay, .zero))
        let (id, wake) = core.state.withLock { state -> (Int, (() -> Void)?) in
            state.nextID += 1
            let id = state.nextID
            Self.push(Entry(deadline: deadline, id: id, action: action), into: &state.heap)
            if let waiter = state.idleWaiter {
                state.idleWaiter = nil
                return (id, { waiter.resume() })
            }
            if let until = state.sleepingUntil, deadline < until, let sleeper = state.sleeper {
                state.sleepingUntil = nil
                return (id, { sleeper.cancel() })
            }
            return (id, nil)
        }
        wake?()
        return ScheduledTimer { [weak self] in
            self?.core.state.withLock { state in _ = state.cancelled.insert(id) }
        }
    }

    /// Stops the scheduler: pending actions never run.
    public func stop() {
        let (waiter, sleeper) = core.state.withLock { state in
            state.stopped = true
            state.heap.removeAll()
            defer { state.idleWaiter = nil }
            return (state.idleWaiter, state.sleeper)
        }
        waiter?.resume()
        sleeper?.cancel()
    }

    /// Pending actions (cancelled ones included until their deadline).
    public var pendingCount: Int { core.state.withLock { $0.heap.count } }

    private enum Step {
        case fire([@Sendable () -> Void])
        case sleep(Task<Void, Never>)
        case idle
        case stop
    }

    private static func run(_ core: Core) async {
        while true {
            let now = ContinuousClock.now
            let step = core.state.withLock { state -> Step in
                if state.stopped { return .stop }
                var due: [@Sendable () -> Void] = []
                while let top = state.heap.first, top.deadline <= now, due.count < 1024 {
                    let entry = Self.pop(from: &state.heap)
                    if state.cancelled.remove(entry.id) == nil { due.append(entry.action) }
                }
                if !due.isEmpty { return .fire(due) }
                if let top = state.heap.first {
                    // Registered under the same lock that read the deadline, so an earlier timer scheduled from
                    // now on sees this sleeper and cuts it short.
                    let deadline = top.deadline
                    let wake = deadline.advanced(by: Self.coalescing)
                    let sleeper = Task { _ = try? await Task.sleep(until: wake, clock: .continuous) }
                    state.sleeper = sleeper
                    state.sleepingUntil = deadline
                    return .sleep(sleeper)
                }
                state.cancelled.removeAll()
                return .idle
            }
            switch step {
            case .stop:
                return
            case .fire(let actions):
                for action in actions { action() }
            case .sleep(let sleeper):
                await sleeper.value
                core.state.withLock { state in
                    state.sleeper = nil
                    state.sleepingUntil = nil
                }
            case .idle:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) -> Void in
                    let resumeNow = core.state.withLock { state -> Bool in
                        if !state.heap.isEmpty || state.stopped { return true }
                        state.idleWaiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    // MARK: - Binary heap on deadline

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func pop(from heap: inout [Entry]) -> Entry {
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
