import Dispatch
import ViewHostLocking

/// The intake of a store's one writer (group commit): items queue from any thread, and one drain at a time, on the
/// writer's serial queue, takes everything queued so far (up to a bound in bytes) as one batch and keeps going until
/// nothing is left. Events that arrive while a batch is being written share the next batch, and its one commit.
///
/// ``JournalWriter`` writes through one of these; the `write` it passes is its transaction.
public final class GroupCommitQueue<Item: Sendable>: Sendable {
    private struct Intake {
        var items: [(item: Item, bytes: Int)] = []
        var draining = false
    }

    private let intake = Locked(Intake())
    private let queue: DispatchQueue
    private let maxBatchBytes: Int

    /// - Parameters:
    ///   - label: The serial queue's label.
    ///   - maxBatchBytes: The most bytes one batch takes (a batch holds one item at least, however large).
    public init(label: String, maxBatchBytes: Int = .max) {
        queue = DispatchQueue(label: label)
        self.maxBatchBytes = maxBatchBytes
    }

    /// Queues `item`, of about `bytes` bytes; unless a drain is running, one starts, writing batches with `write` (on
    /// the serial queue, in the order the items were queued).
    public func enqueue(_ item: Item, bytes: Int = 0, write: @escaping @Sendable ([Item]) -> Void) {
        let start = intake.withLock { intake -> Bool in
            intake.items.append((item, bytes))
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
                var count = 0
                var bytes = 0
                while count < intake.items.count, count == 0 || bytes + intake.items[count].bytes <= maxBatchBytes {
                    bytes += intake.items[count].bytes
                    count += 1
                }
                let batch = intake.items.prefix(count).map { $0.item }
                intake.items.removeFirst(count)
                if batch.isEmpty { intake.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            write(batch)
        }
    }
}
