import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewModelCore

/// What every session of a process shares instead of copying (the initial features, the environment) stays a
/// value: a session that changes its copy changes no other, and a token keeps its digest inside itself.
struct SharedSessionPartsTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    @Test func coresMadeFromOneInitialFeaturesAreIndependentValues() throws {
        let initial = InitialFeatures([InitialFeature(Counter.key, state: Counter.State())])
        var first = SessionCore(settings: SessionSettings(), random: .seeded(3), features: initial)
        let second = SessionCore(settings: SessionSettings(), random: .seeded(3), features: initial)
        let unshared = SessionCore(
            settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(Counter.key, state: Counter.State())])
        #expect(first == unshared && second == unshared)
        #expect(initial.names == ["counter"] && first.featureNames == ["counter"])

        _ = try first.apply([.increment, .increment], to: Counter.key, source: .client, at: start)
        #expect(first.state(of: Counter.key)?.count == 2 && first.version(of: "counter") == 3)
        #expect(second.state(of: Counter.key)?.count == 0 && second.version(of: "counter") == 1)
        #expect(second == unshared)
        // A third core made after the first changed starts from the initial state, not the first's.
        let third = SessionCore(settings: SessionSettings(), random: .seeded(3), features: initial)
        #expect(third == unshared)
    }

    @Test func aDecodedCoreKnowsItsFeatureNames() throws {
        let core = SessionCore(
            settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(Counter.key, state: Counter.State())])
        let decoder = JSONDecoder()
        decoder.userInfo[.featureTypes] = FeatureTypes([Counter.self])
        let decoded = try decoder.decode(SessionCore.self, from: JSONEncoder().encode(core))
        #expect(decoded.featureNames == ["counter"] && decoded == core)
    }

    @Test func aChangedEnvironmentCopyLeavesTheOriginalAsItWas() {
        let original = SessionEnvironment(scheduler: ManualScheduler(start: start), historyInputs: 5)
        var copy = original
        copy.historyInputs = 7
        copy.onStorageFailure = { _ in }
        #expect(original.historyInputs == 5 && original.onStorageFailure == nil)
        #expect(copy.historyInputs == 7 && copy.onStorageFailure != nil && copy.journal == nil)
        copy.historyInputs = -3
        #expect(copy.historyInputs == 0)
    }

    @Test func aTokenKeepsItsDigestAndMatchesOnlyItsSecret() {
        let secret = SessionSecret.random()
        let token = SessionToken(secret: secret)
        #expect(token.digest.count == 32)
        #expect(SessionToken(digest: token.digest) == token)
        #expect(token.matches(secret.rawValue))
        #expect(!token.matches(secret.rawValue + "x") && !token.matches(""))
        let bytes = (0..<32).map { UInt8($0 * 7 % 256) }
        #expect(SessionToken(digest: bytes).digest == bytes)
        // A stored digest of another length (damaged data) is kept as it is and matches nothing.
        let short = SessionToken(digest: [1, 2, 3])
        #expect(short.digest == [1, 2, 3] && short != token && !short.matches(secret.rawValue))
    }
}
