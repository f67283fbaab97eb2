import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// A session's past kept in memory (no journal: the memory store): its inputs and a checkpoint every 64, bounded as
/// a store bounds them, and every version held rebuilt from them exactly as it was.
struct SessionHistoryTests {
    let scheduler = ManualScheduler()
    let effects = ManualRequestRunner([Counter.runner])

    func makeSession(history: Int) -> Session {
        Session(
            id: .random(), token: .random(),
            environment: SessionEnvironment(scheduler: scheduler, requests: effects, historyInputs: history),
            random: .seeded(3), features: [InitialFeature(Counter.key, state: Counter.State())])
    }

    /// Every version of the counter from `history`, rebuilt: the checkpoint at or before it, then its records.
    func rebuilt(_ history: HeldHistory, version: Int) throws -> Counter.Snapshot? {
        let id = SessionID("test")
        guard let checkpoint = history.checkpoints(of: id).last(where: { ($0.versions["counter"] ?? .max) <= version }),
            let core = history.checkpoint(of: id, at: checkpoint.number)
        else { return nil }
        var cursor = HistoryCursor(core: core, number: checkpoint.number)
        if cursor.core.version(of: "counter") == version { return cursor.core.snapshot(of: "counter")?.viewModel as? Counter.Snapshot }
        while true {
            let records = history.records(of: id, after: cursor.number, limit: 10)
            guard !records.isEmpty else { return nil }
            for record in records {
                if let made = try cursor.apply(record, collecting: "counter").first(where: { $0.version == version }) {
                    return made.viewModel as? Counter.Snapshot
                }
            }
        }
    }

    @Test func everyVersionHeldIsRebuiltAsItWas() throws {
        let session = makeSession(history: 100)
        var seen: [Int: Counter.Snapshot] = [1: try #require(session.viewModel(of: Counter.key)?.value)]
        for round in 0..<300 {
            // Batches make several versions in one input; timers and random draws are inputs too.
            switch round % 4 {
            case 0: try session.send([.increment, .increment], to: Counter.key)
            case 1: try session.send([.pickRandom], to: Counter.key)
            case 2: try session.send([.incrementLater(.milliseconds(10))], to: Counter.key)
            default: scheduler.advance(by: .milliseconds(10))
            }
            let (version, snapshot) = try #require(session.viewModel(of: Counter.key))
            seen[version] = snapshot
        }
        let history = try #require(session.heldHistory)
        let checkpoints = history.checkpoints(of: SessionID("test"))
        let oldest = try #require(checkpoints.first?.versions["counter"])
        let latest = try #require(session.version(of: "counter"))
        #expect(oldest > 1, "the oldest inputs went")
        // At least 100 inputs are kept, and fewer than two checkpoint intervals more.
        let kept = history.lastNumber - (checkpoints.first?.number ?? 0)
        #expect((100..<(100 + 2 * Session.snapshotInterval)).contains(kept), "\(kept) inputs kept")
        #expect(checkpoints.map(\.number).allSatisfy { $0 % Session.snapshotInterval == 0 })
        for version in oldest...latest {
            let snapshot = try rebuilt(history, version: version)
            #expect(snapshot != nil, "version \(version)")
            if let expected = seen[version] { #expect(snapshot == expected, "version \(version)") }
        }
        #expect(try rebuilt(history, version: oldest - 1) == nil)
    }

    @Test func noHistoryIsKeptWhenNoneIsAskedFor() throws {
        let session = makeSession(history: 0)
        try session.send([.increment], to: Counter.key)
        #expect(session.heldHistory == nil)
    }

    @Test func theRetentionBoundKeepsTheNewestCheckpointBeforeTheLimit() {
        #expect(HistoryRetention.base(of: [0, 64, 128], last: 130, keeping: 100) == 0)
        #expect(HistoryRetention.base(of: [0, 64, 128, 192], last: 192, keeping: 100) == 64)
        #expect(HistoryRetention.base(of: [64, 128], last: 100, keeping: 100) == nil)
        #expect(HistoryRetention.base(of: [0, 64], last: 64, keeping: 0) == 64)
    }
}

