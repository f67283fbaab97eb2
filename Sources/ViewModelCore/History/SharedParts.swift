import Foundation

/// A long job's parts, prepared by two threads and handed out in order: a thread of its own prepares parts ahead
/// of their use (up to ``mostAhead`` of them), and the caller of ``next()``, when the part it needs is still being
/// prepared there, prepares the next unclaimed one itself instead of waiting. So neither thread idles while there is
/// work, whichever of preparing and using the parts costs more (an import parses and decodes its lines about as
/// fast as it replays and checks them, and which is faster varies).
///
/// Work is claimed in order (`claim`, under a lock) and numbered as it is claimed; `prepare` runs outside the lock.
/// One caller uses ``next(returning:)``; the thread ahead stops when the work runs out or the parts are dropped.
///
/// A part the caller is done with comes back with its next call, and the thread that prepared it frees it: freed on
/// the other thread, each part's memory went back to the arena of the thread that took it (glibc's malloc), under
/// that arena's lock, against that thread's own allocations (an import's profile showed the two threads waking each
/// other in `malloc`).
final class SharedParts<Work: Sendable, Part: Sendable> {
    private final class State: @unchecked Sendable {
        // Guarded by `condition`.
        let condition = NSCondition()
        let claim: () -> Work?
        var claimed = 0
        /// Parts prepared, by number, and whether the thread ahead prepared them.
        var ready: [Int: (part: Part, ahead: Bool)] = [:]
        /// Parts the thread ahead prepared and the caller is done with, for that thread to free.
        var spent: [Part] = []
        /// Whether the thread ahead still runs (so frees what is spent).
        var aheadRunning = true
        /// Parts being prepared ahead.
        var preparing = 0
        var exhausted = false
        var stopped = false

        init(claim: @escaping () -> Work?) {
            self.claim = claim
        }

        /// The next work and its number, nil when there is none (the lock held).
        func take() -> (Int, Work)? {
            guard !exhausted, let work = claim() else {
                exhausted = true
                return nil
            }
            claimed += 1
            return (claimed - 1, work)
        }
    }

    /// The most parts prepared before their turn: what is held at once stays bounded.
    let mostAhead: Int
    /// The longest wait for a part being prepared ahead; past it, ``next()`` ends the parts (as if the work ran out).
    static var limit: TimeInterval { 300 }

    private let state: State
    private let prepare: @Sendable (Work) -> Part
    private var turn = 0
    /// Whether the part handed out last was prepared by the thread ahead.
    private var previousWasAhead = false

    /// Starts preparing ahead. `claim` is called under a lock, in order, and returns nil once the work is done.
    init(mostAhead: Int = 4, claim: @escaping () -> Work?, prepare: @escaping @Sendable (Work) -> Part) {
        self.mostAhead = mostAhead
        self.prepare = prepare
        let state = State(claim: claim)
        self.state = state
        Thread.detachNewThread { Self.prepareAhead(state, prepare: prepare, mostAhead: mostAhead) }
    }

    deinit {
        state.condition.lock()
        state.stopped = true
        state.condition.broadcast()
        state.condition.unlock()
    }

    private static func prepareAhead(_ state: State, prepare: @Sendable (Work) -> Part, mostAhead: Int) {
        let condition = state.condition
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !state.stopped, state.ready.count >= mostAhead, state.spent.isEmpty { condition.wait() }
            if !state.spent.isEmpty {
                let spent = state.spent
                state.spent = []
                condition.unlock()
                _ = consume spent  // the last reference: the parts are freed here, outside the lock
                condition.lock()
                continue
            }
            guard !state.stopped, let (number, work) = state.take() else {
                state.aheadRunning = false
                condition.broadcast()
                return
            }
            state.preparing += 1
            condition.unlock()
            let part = prepare(work)
            condition.lock()
            state.preparing -= 1
            state.ready[number] = (part, true)
            condition.broadcast()
        }
    }

    /// The next part, in order; nil after the last.
    /// - Parameter previous: The part the caller is done with (the one this returned last), to be freed by the
    ///   thread that prepared it.
    /// - Returns: The next part, or nil after the last.
    func next(returning previous: consuming Part? = nil) -> Part? {
        let condition = state.condition
        condition.lock()
        defer { condition.unlock() }
        // Moved in under the lock (no reference left here to be the last one), else freed here when this returns.
        if previousWasAhead, state.aheadRunning, let previous = consume previous {
            state.spent.append(previous)
            condition.broadcast()
        }
        while true {
            if let (part, ahead) = state.ready.removeValue(forKey: turn) {
                turn += 1
                previousWasAhead = ahead
                condition.broadcast()
                return part
            }
            if state.ready.count < mostAhead, let (number, work) = state.take() {
                condition.unlock()
                let part = prepare(work)
                condition.lock()
                state.ready[number] = (part, false)
                continue
            }
            // This part is being prepared ahead, or every part was handed out.
            guard state.preparing > 0, turn < state.claimed else { return nil }
            guard condition.wait(until: Date(timeIntervalSinceNow: Self.limit)) else { return nil }
        }
    }
}
