import Dispatch
import ViewHostLocking

/// The intake of a store's one writer (group commit): items queue from any thread, and one drain at a time, on the
/// writer's serial queue, takes everything queued so far as one batch and keeps going until nothing is left. Events
/// that arrive while a batch is being written share the next batch, and its one commit.
///
/// The SQLite and PostgreSQL writers both write through one of these; the `write` they pass is their transaction.
public final class GroupCommitQueue<Item: Sendable>: Sendable {
    private struct Intake {
        var items: [Item] = []
        var draining = false
    }

    private let intake = Locked(Intake())
    private let queue: DispatchQueue

    /// - Parameter label: The serial queue's label.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Queues `item`; unless a drain is running, one starts, writing batches with `write` (on the serial queue, in
    /// the order the items were queued).
    public func enqueue(_ item: Item, write: @escaping @Sendable ([Item]) -> Void) {
        let start = intake.withLock { intake -> Bool in
            intake.items.append(item)
            guard !intake.draining else { return false }
            intake.draining = true
            return true
        }
        if start { queue.async { self.drain(write) } }
    }

    /// Writes everything queued with `write` before returning (shutdown): later items still queue and are written
    /// by the next drain, but nothing waits for them.
    public func drainAndStop(write: @escaping @Sendable ([Item]) -> Void) {
        queue.sync {}
        queue.sync { self.drain(write) }
    }

    /// Runs `work` on the writer's queue after `seconds` (between batches, never during one).
    public func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + seconds, execute: work)
    }

    private func drain(_ write: @Sendable ([Item]) -> Void) {
        while true {
            let batch = intake.withLock { intake -> [Item] in
                let batch = intake.items
                intake.items.removeAll(keepingCapacity: true)
                if batch.isEmpty { intake.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            write(batch)
        }
    }
}
