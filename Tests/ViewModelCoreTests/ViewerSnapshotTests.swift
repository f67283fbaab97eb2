import Foundation
import Testing
import TestSupport
import ViewHostAPI
import ViewHostLocking
@testable import ViewModelCore

/// Snapshots that depend on who is looking (issue 43): a plain feature's viewer overload is its one snapshot, a
/// ``ViewerDependentFeature`` is detected from its type alone, a session shares one representation per version of a
/// plain feature with every viewer and makes a member's own view of the other, and a past version inside a batch is
/// rebuilt for a viewer.
struct ViewerSnapshotTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    /// Votes, each by who sent it; each viewer sees how many of them are theirs.
    enum Votes: ViewerDependentFeature {
        struct Snapshot: FeatureSnapshot {
            static let feature = "votes"
            var total: Int
            var yours: Int
        }

        static let key = FeatureKey<Votes>("votes")
        /// Snapshot builds, by the viewer they were made for (tests run in parallel: each reads its own session's
        /// viewers, named apart).
        static let builds = Locked<[String: Int]>([:])

        static func check(_ event: Int, in state: [String]) throws(EventRefusal) {}

        static func apply(_ event: Int, to state: inout [String], context: inout FeatureContext<Votes>) {
            state.append(context.participant ?? Participant.ownerID)
            context.markChanged()
        }

        static func snapshot(of state: [String], settings: SessionSettings, viewer: Viewer) -> Snapshot {
            builds.withLock { $0[viewer.participant, default: 0] += 1 }
            return Snapshot(total: state.count, yours: state.count { $0 == viewer.participant })
        }
    }

    /// The same count for everyone.
    enum Plain: Feature {
        struct Snapshot: FeatureSnapshot {
            static let feature = "plain"
            var count: Int
        }

        static let key = FeatureKey<Plain>("plain")

        static func check(_ event: Int, in state: Int) throws(EventRefusal) {}

        static func apply(_ event: Int, to state: inout Int, context: inout FeatureContext<Plain>) {
            state += event
            context.markChanged()
        }

        static func snapshot(of state: Int, settings: SessionSettings) -> Snapshot { Snapshot(count: state) }
    }

    @Test func aPlainFeatureShowsEveryViewerItsOneSnapshotAndSaysItDoesNotDependOnThem() {
        let settings = SessionSettings()
        #expect(!Plain.dependsOnViewer)
        #expect(!Counter.dependsOnViewer)
        #expect(Plain.snapshot(of: 3, settings: settings, viewer: Viewer(participant: "pbea")).count == 3)
        #expect(Plain.snapshot(of: 3, settings: settings, viewer: .owner) == Plain.snapshot(of: 3, settings: settings))
    }

    @Test func aViewerDependentFeatureIsDetectedAndItsPlainSnapshotIsTheOwners() {
        let settings = SessionSettings()
        let state = ["owner", "pbea", "pbea"]
        #expect(Votes.dependsOnViewer)
        #expect(Votes.snapshot(of: state, settings: settings) == Votes.Snapshot(total: 3, yours: 1))
        #expect(Votes.snapshot(of: state, settings: settings, viewer: Viewer(participant: "pbea")).yours == 2)
        #expect(Votes.snapshot(of: state, settings: settings, viewer: Viewer(participant: "pcai")).yours == 0)
        #expect(Viewer.owner.isOwner && Viewer.owner.participant == Participant.ownerID)
        #expect(!Viewer(participant: "pbea").isOwner)
        // Detected through an erased slot too: what a session asks.
        let core = SessionCore(
            settings: settings, random: .seeded(1),
            features: [InitialFeature(Votes.key, state: []), InitialFeature(Plain.key, state: 0)])
        #expect(core.dependsOnViewer("votes"))
        #expect(!core.dependsOnViewer("plain"))
        #expect(!core.dependsOnViewer("nothing"))
    }

    func makeSession() -> Session {
        Session(
            id: .random(), token: .random(), environment: SessionEnvironment(scheduler: ManualScheduler()),
            random: .seeded(7),
            features: [InitialFeature(Votes.key, state: []), InitialFeature(Plain.key, state: 0)])
    }

    /// A plain feature's representation is made once per version, whoever reads it; a member's own view of a
    /// viewer-dependent one is its own (made for each read, never kept), and the owner's is made once.
    @Test func aSessionSharesAPlainFeaturesRepresentationAndMakesAMembersOwnView() throws {
        let session = makeSession()
        let bea = Viewer(participant: "p\(UUID().uuidString.prefix(8))")
        _ = try session.submit(Submission(events: [1], participant: bea.participant), to: Votes.key)
        _ = try session.submit(Submission(events: [1]), to: Votes.key)
        _ = try session.submit(Submission(events: [1]), to: Plain.key)
        let made = Locked(0)
        func yours(_ version: Int, _ viewModel: any ViewModel) -> Int {
            made.withLock { $0 += 1 }
            return (viewModel as? Votes.Snapshot)?.yours ?? (viewModel as? Plain.Snapshot)?.count ?? -1
        }
        #expect(session.representation(of: "plain", make: yours).ready?.value == 1)
        #expect(session.representation(of: "plain", for: bea, make: yours).ready?.value == 1)
        #expect(made.withLock { $0 } == 1, "the member shares the owner's representation of a plain feature")

        made.withLock { $0 = 0 }
        let owners = session.representation(of: "votes", make: yours).ready
        #expect(owners?.version == 3 && owners?.value == 1)
        #expect(session.representation(of: "votes", for: .owner, make: yours).ready?.value == 1)
        #expect(made.withLock { $0 } == 1, "the owner's view is cached")
        let beas = session.representation(of: "votes", for: bea, make: yours).ready
        #expect(beas?.version == 3 && beas?.value == 1 && beas?.sequence == owners?.sequence)
        #expect(session.representation(of: "votes", for: bea, make: yours).ready?.value == 1)
        #expect(made.withLock { $0 } == 3, "a member's own view is made for each read")
        #expect(Votes.builds.withLock { $0[bea.participant] } == 2)
        #expect(session.dependsOnViewer("votes") && !session.dependsOnViewer("plain"))
    }

    /// A batch makes a version per event: a past version inside it is rebuilt as each viewer saw it.
    @Test func aPastVersionInsideABatchIsRebuiltForAViewer() throws {
        var core = SessionCore(settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(Votes.key, state: [])])
        let initial = core
        _ = try core.submit(Submission(events: [1, 1, 1], participant: "pbea"), to: Votes.key, at: start)
        let record = JournalRecord(
            number: 1,
            input: .submission(
                feature: "votes", at: start, events: try core.encodeEvents([1, 1, 1] as [Int], of: "votes"),
                eventIDs: [nil, nil, nil], key: nil, fingerprint: nil, participant: "pbea"))
        var forBea = HistoryCursor(core: initial, number: 0)
        let beas = try forBea.apply(record, collecting: "votes", for: Viewer(participant: "pbea"))
        #expect(beas.map(\.version) == [2, 3, 4])
        #expect(beas.map { ($0.viewModel as? Votes.Snapshot)?.yours } == [1, 2, 3])
        var forOwner = HistoryCursor(core: initial, number: 0)
        let owners = try forOwner.apply(record, collecting: "votes")
        #expect(owners.map { ($0.viewModel as? Votes.Snapshot)?.yours } == [0, 0, 0])
        #expect(owners.map { ($0.viewModel as? Votes.Snapshot)?.total } == [1, 2, 3])
        #expect(forBea.core == core)
    }
}
