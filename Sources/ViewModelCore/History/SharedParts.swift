import Foundation

/// A long job's parts, prepared by two threads and handed out in order: a thread of its own prepares parts ahead
/// of their use (up to ``mostAhead`` of them), and the caller of ``next()``, when the part it needs is still being
/// prepared there, prepares the next unclaimed one itself instead of waiting. So neither thread idles while there is
/// work, whichever of preparing and using the parts costs more (an import parses and decodes its lines about as
/// fast as it replays and checks them, and which is faster varies).
///
/// Work is claimed in order (`claim`, under a lock) and numbered as it is claimed; `prepare` runs outside the lock.
/// One caller uses ``next()``; the thread ahead stops when the work runs out or the parts are dropped.
final class SharedParts<Work: Sendable, Part: Sendable> {
    private final class State: @unchecked Sendable {
        // Guarded by `condition`.
        let condition = NSCondition()
        let claim: () -> Work?
        var claimed = 0
        var ready: [Int: Part] = [:]
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
            while !state.stopped, state.ready.count >= mostAhead { condition.wait() }
            guard !state.stopped, let (number, work) = state.take() else {
                condition.broadcast()
                return
            }
            state.preparing += 1
            condition.unlock()
            let part = prepare(work)
            condition.lock()
            state.preparing -= 1
            state.ready[number] = part
            condition.broadcast()
        }
    }

    /// The next part, in order; nil after the last.
    func next() -> Part? {
        let condition = state.condition
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let part = state.ready.removeValue(forKey: turn) {
                turn += 1
                condition.broadcast()
                return part
            }
            if state.ready.count < mostAhead, let (number, work) = state.take() {
                condition.unlock()
                let part = prepare(work)
                condition.lock()
                state.ready[number] = part
                continue
            }
            // This part is being prepared ahead, or every part was handed out.
            guard state.preparing > 0, turn < state.claimed else { return nil }
            guard condition.wait(until: Date(timeIntervalSinceNow: Self.limit)) else { return nil }
        }
    }
}
