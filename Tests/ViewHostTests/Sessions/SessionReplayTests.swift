import Foundation
import Testing
import ViewModelCore

/// Determinism: a session replayed from its recorded inputs (client, timer, simulator, provider) reaches the same
/// snapshot bytes, versions and log entries at every step, and a whole session encodes and decodes back equal.
struct SessionReplayTests {
    @Test func thousandRandomWalksReplayToTheSameBytesAtEveryStep() throws {
        var steps = 0
        var refusals = 0
        var kinds: [String: Int] = [:]
        for seed in UInt64(1)...1_000 {
            var walk = SessionWalk(seed: seed)
            try walk.walk(steps: 30)
            var replayed = SessionWalk.newCore(seed: seed)
            for (index, input) in walk.inputs.enumerated() {
                try replayed.replay(input)
                let frame = SessionWalk.frame(of: replayed)
                guard frame == walk.frames[index] else {
                    Issue.record("seed \(seed): step \(index) (\(input)) replays differently")
                    return
                }
            }
            #expect(replayed == walk.core, "seed \(seed)")
            steps += walk.inputs.count
            refusals += walk.refusals
            for input in walk.inputs { kinds[String(describing: input).prefix { $0 != "(" }.description, default: 0] += 1 }
        }
        // The walks reach what they are meant to: every kind of input, and plenty of refused (409) requests.
        #expect(steps > 10_000)
        #expect(refusals > 1_000)
        #expect(kinds.values.allSatisfy { $0 > 1_000 } && kinds.count == 4, "\(kinds)")
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

    @Test func aWholeSessionMidWalkEncodesAndDecodesBackEqual() throws {
        for seed in UInt64(1)...50 {
            var walk = SessionWalk(seed: seed)
            try walk.walk(steps: 40)
            let decoder = JSONDecoder()
            decoder.userInfo[.featureTypes] = SessionWalk.types
            let decoded = try decoder.decode(SessionCore.self, from: JSONEncoder().encode(walk.core))
            #expect(decoded == walk.core, "seed \(seed)")
            #expect(SessionWalk.frame(of: decoded) == SessionWalk.frame(of: walk.core))
        }
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
