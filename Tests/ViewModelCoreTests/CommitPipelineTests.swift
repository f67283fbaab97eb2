import Foundation
import Testing

@testable import ViewModelCore

/// The commit hand-off as a value (``CommitPipeline``): driven here by hand, as the session's threads and a fake
/// journal would drive it, with no lock, no thread and no clock. Each test states an ordering, including the two
/// that once went wrong: entries handed over out of number order, and the hand-off role taken with nothing queued.
struct CommitPipelineTests {
    static let at = Date(timeIntervalSince1970: 1_795_442_400)

    /// A fake journal: what was handed to it, in order.
    struct Journal {
        var appended: [Int] = []

        mutating func append(_ batch: [Session.UnmadeEntry]) {
            appended += batch.map(\.number)
        }
    }

    /// An input that changed `feature` from `version - 1` to `version` (nil: changed no version).
    static func input(
        _ feature: String = "counter", version: Int? = nil, key: String? = nil, waited: Bool = false
    ) -> CommitPipeline.Recorded {
        CommitPipeline.Recorded(
            entry: { number in
                Session.UnmadeEntry(
                    number: number, input: .timer(id: number, at: at), snapshot: nil, nextDueAt: nil, dueChanged: false,
                    lastAccess: at)
            },
            effects: Session.Effects(changes: version.map { [SessionChange(sequence: $0, versions: [feature: $0])] } ?? []),
            changed: version.map { (feature: feature, versionBefore: $0 - 1) },
            versions: version.map { [feature: $0] } ?? [:], key: key, waited: waited)
    }

    static func numbers(_ outcome: CommitPipeline.Outcome) -> (kept: [Int], failed: [Int]) {
        switch outcome {
        case .kept(let done): (done.map(\.number), [])
        case .failed(let failed): ([], failed.map(\.number))
        }
    }

    @Test func inputsAreNumberedInTheOrderTheyAreApplied() {
        var pipeline = CommitPipeline(journalNumber: 4)
        #expect(pipeline.record(Self.input()).number == 5)
        #expect(pipeline.record(Self.input()).number == 6)
        #expect(pipeline.appliedNumber == 6)
        #expect(pipeline.committedNumber == 4)
        #expect(!pipeline.isSettled)
    }

    /// Threads that applied 5 and 6 reach the hand-off in either order: the first to take the role hands over
    /// both, in number order, and the other finds the role taken and hands nothing (each handing its own over, the
    /// store once got 6 before 5 and refused it as a gap).
    @Test func entriesReachTheJournalInNumberOrderWhicheverThreadHandsThemOver() {
        var pipeline = CommitPipeline(journalNumber: 4)
        var journal = Journal()
        _ = pipeline.record(Self.input())  // thread A applies 5
        _ = pipeline.record(Self.input())  // thread B applies 6, and reaches the hand-off first
        let byB = pipeline.takeHandOff()
        #expect(pipeline.takeHandOff().isEmpty, "thread A found the role taken")
        journal.append(byB)
        _ = pipeline.record(Self.input())  // thread C applies 7 while B hands over
        #expect(pipeline.takeHandOff().isEmpty, "thread C found the role taken")
        var next = pipeline.continueHandOff()
        while !next.isEmpty {
            journal.append(next)
            next = pipeline.continueHandOff()
        }
        #expect(journal.appended == [5, 6, 7])
        _ = pipeline.record(Self.input())  // the role ended: the next thread takes it
        journal.append(pipeline.takeHandOff())
        #expect(journal.appended == [5, 6, 7, 8])
    }

    /// A thread that finds nothing queued (another took its entry already) does not take the role: taken with
    /// nothing to hand over, it stayed taken, and every later entry waited for ever.
    @Test func theRoleIsNeverTakenWithNothingToHandOver() {
        var pipeline = CommitPipeline(journalNumber: 0)
        #expect(pipeline.takeHandOff().isEmpty)
        _ = pipeline.record(Self.input())
        #expect(pipeline.takeHandOff().map(\.number) == [1])
        #expect(pipeline.continueHandOff().isEmpty)
        #expect(pipeline.takeHandOff().isEmpty)
        _ = pipeline.record(Self.input())
        #expect(pipeline.takeHandOff().map(\.number) == [2], "the next entry is handed over")
    }

    @Test func aCommitReleasesTheInputsItCoversInOrderAndTheirVersionsBecomeReadable() {
        var pipeline = CommitPipeline(journalNumber: 0)
        let first = pipeline.record(Self.input(version: 2, key: "k", waited: true))
        _ = pipeline.record(Self.input(version: 3))
        _ = pipeline.record(Self.input())  // changed nothing shown
        _ = pipeline.takeHandOff()
        // Readers see the version before the first change until it is durable.
        #expect(pipeline.readableVersion(of: "counter", current: 3) == 1)
        #expect(pipeline.isInFlight(key: "k"))
        let outcome = pipeline.committed(upTo: 1, durable: true) { _ in 3 }
        #expect(Self.numbers(outcome).kept == [1])
        #expect(pipeline.readableVersion(of: "counter", current: 3) == 2)
        #expect(!pipeline.isInFlight(key: "k"))
        #expect(first.ticket != nil)
        #expect(Self.numbers(pipeline.committed(upTo: 3, durable: true) { _ in 3 }).kept == [2, 3])
        #expect(pipeline.readableVersion(of: "counter", current: 3) == 3)
        #expect(pipeline.committedNumber == 3)
        #expect(pipeline.isSettled)
    }

    /// The journal's contract: a write it could not keep fails every later one of the session. Everything applied
    /// after the failed entry fails with it, and nothing of it is readable.
    @Test func aFailedCommitFailsEverythingAppliedAfterIt() {
        var pipeline = CommitPipeline(journalNumber: 0)
        _ = pipeline.record(Self.input(version: 2))
        _ = pipeline.record(Self.input(version: 3, key: "k"))
        _ = pipeline.record(Self.input(version: 4))
        _ = pipeline.takeHandOff()
        #expect(Self.numbers(pipeline.committed(upTo: 1, durable: true) { _ in 4 }).kept == [1])
        let failed = Self.numbers(pipeline.committed(upTo: 2, durable: false) { _ in 4 }).failed
        #expect(failed == [2, 3])
        #expect(pipeline.committedNumber == 1)
        #expect(pipeline.readableVersion(of: "counter", current: 4) == 2)
        #expect(!pipeline.isInFlight(key: "k"))
    }

    @Test func aTicketMadeOnDemandResolvesWithTheNewestChangeOfItsFeature() {
        var pipeline = CommitPipeline(journalNumber: 0)
        _ = pipeline.record(Self.input(version: 2))
        _ = pipeline.record(Self.input("other", version: 5))
        let ticket = pipeline.ticket(forNewestChangeOf: "counter")
        #expect(ticket != nil)
        #expect(pipeline.ticket(forNewestChangeOf: "counter") === ticket, "the same ticket, made once")
        #expect(pipeline.ticketForAll() !== ticket)
        guard case .kept(let done) = pipeline.committed(upTo: 1, durable: true, current: { _ in 2 }) else {
            Issue.record("not kept")
            return
        }
        #expect(done.first?.ticket === ticket)
        #expect(pipeline.ticket(forNewestChangeOf: "counter") == nil)
    }

    /// While a reader waits for a feature's newest durable version, each version of it is kept before an input
    /// changes it, so the one that becomes durable can be built; once durable, older ones are forgotten.
    @Test func versionsAReaderWaitsForAreKeptUntilDurable() {
        var core = SessionCore(settings: SessionSettings(), random: .seeded(1), features: [InitialFeature(Counter.key, state: .init())])
        var pipeline = CommitPipeline(journalNumber: 0)
        pipeline.keepVersionsReadersWaitFor(in: core)
        #expect(pipeline.keptVersion(of: "counter", version: 1) == nil, "nobody waits: nothing is kept")
        pipeline.readerWaits(for: "counter")
        #expect(pipeline.isWaitedOn("counter"))
        for version in 2...3 {
            pipeline.keepVersionsReadersWaitFor(in: core)
            _ = try? core.apply([Counter.Event.increment], to: Counter.key, source: .client, at: Self.at)
            _ = pipeline.record(Self.input(version: version))
        }
        #expect(pipeline.keptVersion(of: "counter", version: 1) != nil)
        #expect(pipeline.keptVersion(of: "counter", version: 2) != nil)
        #expect(pipeline.takeHandOff().map(\.number) == [1, 2])
        #expect(pipeline.continueHandOff().isEmpty)
        _ = pipeline.committed(upTo: 1, durable: true) { _ in 3 }
        #expect(pipeline.keptVersion(of: "counter", version: 1) == nil, "older than the newest durable version")
        #expect(pipeline.keptVersion(of: "counter", version: 2) != nil)
        pipeline.readerDone(with: "counter")
        #expect(!pipeline.isWaitedOn("counter"))
        _ = pipeline.committed(upTo: 2, durable: true) { _ in 3 }
        #expect(pipeline.keptVersion(of: "counter", version: 2) == nil)
        #expect(pipeline.isSettled)
    }

    /// A copy of the pipeline is a value: changing it leaves the original as it was.
    @Test func aCopyIsAValue() {
        var pipeline = CommitPipeline(journalNumber: 0)
        _ = pipeline.record(Self.input(version: 2, key: "k"))
        _ = pipeline.takeHandOff()
        _ = pipeline.continueHandOff()
        var copy = pipeline
        _ = copy.committed(upTo: 1, durable: true) { _ in 2 }
        #expect(copy.isSettled)
        #expect(!pipeline.isSettled)
        #expect(pipeline.isInFlight(key: "k"))
    }
}
