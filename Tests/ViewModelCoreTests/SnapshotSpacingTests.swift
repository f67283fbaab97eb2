import Foundation
import Testing
import TestSupport
import ViewHostLocking

@testable import ViewModelCore

/// A session on a durable store spaces its snapshots by their size: a small value every 64 inputs, a large one
/// less often (one input per 32 bytes stored, at most 256), so encoding a large value stops dominating what an input
/// costs.
struct SnapshotSpacingTests {
    /// A journal that keeps every entry at once and says each snapshot took `snapshotBytes`.
    final class SizedJournal: SessionJournal {
        let snapshotBytes: Int
        let snapshots = Locked<[Int]>([])

        init(snapshotBytes: Int) { self.snapshotBytes = snapshotBytes }

        func append(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) -> Int {
            let taken = entry.snapshot != nil
            if taken { snapshots.withLock { $0.append(entry.number) } }
            completion(true)
            return taken ? snapshotBytes : 0
        }
    }

    @Test func theIntervalFollowsTheSnapshotsSizeWithinItsBounds() {
        #expect(Session.snapshotInterval(afterSnapshotOf: 0) == 64)
        #expect(Session.snapshotInterval(afterSnapshotOf: 2_048) == 64)
        #expect(Session.snapshotInterval(afterSnapshotOf: 4_096) == 128)
        #expect(Session.snapshotInterval(afterSnapshotOf: 6_000) == 187)
        #expect(Session.snapshotInterval(afterSnapshotOf: 8_192) == 256)
        #expect(Session.snapshotInterval(afterSnapshotOf: 10_000_000) == 256)
    }

    /// A snapshot due and not taken (an import has a checkpoint only every 64 records) stays due; once taken, the
    /// next is spaced by what it took.
    @Test func aDueSnapshotNotTakenStaysDueAndATakenOneSpacesTheNext() {
        var spacing = SnapshotSpacing()
        /// The inputs counted until a snapshot is due (the due one included).
        func inputsUntilDue() -> Int {
            var count = 1
            while !spacing.countInput() { count += 1 }
            return count
        }
        #expect(inputsUntilDue() == 64)
        let stillDue = spacing.countInput()
        #expect(stillDue)
        spacing.taken(storedBytes: 9_000)
        #expect(inputsUntilDue() == 256)
        spacing.taken()
        spacing.stored(bytes: 0)
        #expect(inputsUntilDue() == 64)
    }

    /// The first snapshot comes after 64 inputs whatever the size; the interval after it follows what the store
    /// said that snapshot took.
    @Test(arguments: [(500, [64, 128, 192, 256, 320, 384, 448, 512, 576]), (4_096, [64, 192, 320, 448, 576]),
        (9_000, [64, 320, 576])])
    func snapshotsAreSpacedByWhatTheStoreSaysTheyTake(bytes: Int, expected: [Int]) throws {
        let journal = SizedJournal(snapshotBytes: bytes)
        let session = Session(
            id: .random(), token: .random(),
            environment: SessionEnvironment(scheduler: ManualScheduler(), journal: journal),
            random: .seeded(7), features: [InitialFeature(Counter.key, state: Counter.State(probe: UUID().uuidString))])
        for _ in 0..<600 { _ = try session.submit(Submission(events: [Counter.Event.increment]), to: Counter.key) }
        #expect(journal.snapshots.withLock { $0 } == expected)
    }
}
