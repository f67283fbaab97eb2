import Foundation
import TestSupport
import Testing
import ViewModelCore

/// Determinism: a session replayed from its recorded inputs (client, timer, simulator, provider) reaches the same
/// snapshot bytes, versions and log entries at every step, and a whole session encodes and decodes back equal.
struct SessionReplayTests {
    /// What a batch of walks found: the first step of each seed that replayed differently, and what the walks did.
    private struct Tally: Sendable {
        var mismatches: [String] = []
        var steps = 0
        var refusals = 0
        var kinds: [String: Int] = [:]
    }

    /// About 40 s of CPU in a debug build: it runs on a thread of its own (``OffThread``), not on one of the
    /// cooperative pool's two threads here, which in-process servers of parallel tests need for their handlers and
    /// streamed bodies (holding one for 40 s made their reads time out).
    @Test func thousandRandomWalksReplayToTheSameBytesAtEveryStep() async throws {
        let tally = try await OffThread.run(stackSize: nil) { () throws -> Tally in
            var tally = Tally()
            for seed in UInt64(1)...1_000 {
                var walk = SessionWalk(seed: seed)
                try walk.walk(steps: 30)
                var replayed = SessionWalk.newCore(seed: seed)
                for (index, input) in walk.inputs.enumerated() {
                    try replayed.replay(input)
                    guard SessionWalk.frame(of: replayed) == walk.frames[index] else {
                        tally.mismatches.append("seed \(seed): step \(index) (\(input)) replays differently")
                        return tally
                    }
                }
                if replayed != walk.core { tally.mismatches.append("seed \(seed): the replayed core differs") }
                tally.steps += walk.inputs.count
                tally.refusals += walk.refusals
                for input in walk.inputs {
                    tally.kinds[String(describing: input).prefix { $0 != "(" }.description, default: 0] += 1
                }
            }
            return tally
        }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.prefix(10))")
        // The walks reach what they are meant to: every kind of input (a participation too), and plenty of refused (409) requests.
        #expect(tally.steps > 10_000)
        #expect(tally.refusals > 1_000)
        #expect(tally.kinds.values.allSatisfy { $0 > 1_000 } && tally.kinds.count == 5, "\(tally.kinds)")
    }

    @Test func theJournalItselfEncodesAndDecodes() throws {
        var walk = SessionWalk(seed: 42)
        try walk.walk(steps: 60)
        let data = try JSONEncoder().encode(walk.inputs)
        let inputs = try JSONDecoder().decode([SessionInput].self, from: data)
        #expect(inputs == walk.inputs)
        var replayed = SessionWalk.newCore(seed: 42)
        for input in inputs { try replayed.replay(input) }
        #expect(replayed == walk.core)
    }

    /// Two seconds of CPU in a debug build, off the cooperative pool like the walks above.
    @Test func aWholeSessionMidWalkEncodesAndDecodesBackEqual() async throws {
        let mismatches = try await OffThread.run(stackSize: nil) { () throws -> [String] in
            var mismatches: [String] = []
            for seed in UInt64(1)...50 {
                var walk = SessionWalk(seed: seed)
                try walk.walk(steps: 40)
                let decoder = JSONDecoder()
                decoder.userInfo[.featureTypes] = SessionWalk.types
                let decoded = try decoder.decode(SessionCore.self, from: JSONEncoder().encode(walk.core))
                if decoded != walk.core { mismatches.append("seed \(seed): the decoded core differs") }
                if SessionWalk.frame(of: decoded) != SessionWalk.frame(of: walk.core) {
                    mismatches.append("seed \(seed): the decoded core's frame differs")
                }
            }
            return mismatches
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func aJournalOfAnotherSessionIsRefusedNotCrashed() throws {
        var walk = SessionWalk(seed: 9)
        try walk.walk(steps: 20)
        var other = SessionCore(settings: SessionWalk.settings, random: .seeded(1), features: [])
        #expect(throws: ReplayError.self) {
            for input in walk.inputs { try other.replay(input) }
        }
    }
}
