import Foundation
import ViewHostLocking
import ViewModelCore

/// A scheduler whose time moves only in ``advance(by:)``, which runs every due action synchronously, in deadline
/// order (ties in scheduling order), with ``now`` set to each action's deadline while it runs. Actions scheduled
/// by actions run in the same call when they fall due within it. Tests of timer-driven behaviour (the bot's
/// 0.5 s, 1.5 s and 5–14 s delays) therefore run without sleeping and always in the same order.
public final class ManualScheduler: TimerScheduling {
    private struct Entry {
        let deadline: Duration
        let id: Int
        let action: @Sendable () -> Void
    }

    private struct State {
        var elapsed: Duration = .zero
        var entries: [Entry] = []
        var nextID = 0
    }

    private let start: Date
    private let state = Locked(State())

    /// Creates a scheduler whose clock starts at `start` (default 2026-11-23 14:00:00 UTC).
    public init(start: Date = Date(timeIntervalSince1970: 1_795_442_400)) {
        self.start = start
    }

    /// The start date plus the time the test has advanced; it never moves by itself.
    public var now: Date {
        start.addingTimeInterval(Self.seconds(state.withLock { $0.elapsed }))
    }

    /// Time moved so far.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// Actions waiting to run.
    public var pendingCount: Int { state.withLock { $0.entries.count } }

    /// The delays from now of the waiting actions, soonest first.
    public var pendingDelays: [Duration] {
        state.withLock { state in state.entries.map { $0.deadline - state.elapsed }.sorted() }
    }

    /// Queues `action` to run when the test advances the scheduler `delay` past now; the timer returned cancels it.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            Self.push(
                Entry(deadline: state.elapsed + max(delay, .zero), id: state.nextID, action: action),
                into: &state.entries)
            return state.nextID
        }
        return ScheduledTimer { [weak self] in
            self?.state.withLock { state in Self.remove(id: id, from: &state.entries) }
        }
    }

    /// Moves time forward by `duration`, running what falls due on the way.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.elapsed + duration }
        while let entry = nextDue(before: target) {
            entry.action()
        }
        state.withLock { $0.elapsed = target }
    }

    /// Runs everything scheduled, however far in the future, moving time as needed (bounded by `limit` actions).
    public func runUntilIdle(limit: Int = 10_000) {
        for _ in 0..<limit {
            guard let entry = nextDue(before: .seconds(Int64.max / 2)) else { return }
            entry.action()
        }
    }

    private func nextDue(before target: Duration) -> Entry? {
        state.withLock { state -> Entry? in
            guard let top = state.entries.first, top.deadline <= target else { return nil }
            let entry = Self.pop(from: &state.entries)
            state.elapsed = max(state.elapsed, entry.deadline)
            return entry
        }
    }

    // A binary heap on (deadline, id), so thousands of pending timers stay cheap.
    private static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
    }

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func pop(from heap: inout [Entry]) -> Entry {
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        siftDown(from: 0, in: &heap)
        return top
    }

    private static func siftDown(from start: Int, in heap: inout [Entry]) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, precedes(heap[right], heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    /// Removes entry `id` (a cancelled timer) and restores the heap.
    private static func remove(id: Int, from heap: inout [Entry]) {
        guard let index = heap.firstIndex(where: { $0.id == id }) else { return }
        heap.swapAt(index, heap.count - 1)
        heap.removeLast()
        guard index < heap.count else { return }
        siftDown(from: index, in: &heap)
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
