import Foundation
import Testing
import ViewHostAPI
@testable import ViewModelCore

/// Who sent a client's event (issue 43): the feature reads it in its context, the data-flow log names a member, the
/// journal record keeps it, and a replay of the records reaches the same value.
struct ParticipantAttributionTests {
    let start = Date(timeIntervalSince1970: 1_795_442_400)

    /// Records, in its state, who sent each client event (``FeatureContext/participant``).
    enum Signed: Feature {
        struct State: Codable, Equatable, Sendable {
            var signers: [String] = []
        }

        enum Event: Codable, Equatable, Sendable {
            case sign
            case signLater
        }

        struct Snapshot: FeatureSnapshot {
            static let feature = "signed"
            var signers: [String]
        }

        static let key = FeatureKey<Signed>("signed")

        static func check(_ event: Event, in state: State) throws(EventRefusal) {}

        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Signed>) {
            switch event {
            case .sign:
                state.signers.append(context.participant ?? "nobody")
                context.markChanged()
            case .signLater:
                // A follow-up is the session's own: it names no one.
                context.route(.sign, source: .view)
            }
        }

        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot {
            Snapshot(signers: state.signers)
        }
    }

    func makeCore() -> SessionCore {
        SessionCore(settings: SessionSettings(), random: .seeded(3), features: [InitialFeature(Signed.key, state: Signed.State())])
    }

    @Test func theFeatureTheLogAndTheJournalKnowWhoSentEachEvent() throws {
        var core = makeCore()
        let initial = core
        var inputs: [SessionInput] = []
        for (participant, event) in [("pbea", Signed.Event.sign), (nil, .sign), ("pbea", .signLater)] as [(String?, Signed.Event)] {
            _ = try core.submit(Submission(events: [event], participant: participant), to: Signed.key, at: start)
            inputs.append(
                .submission(
                    feature: "signed", at: start, events: try core.encodeEvents([event], of: "signed"), eventIDs: [nil],
                    key: nil, fingerprint: nil, participant: participant))
        }
        #expect(core.state(of: Signed.key)?.signers == ["pbea", Participant.ownerID, "nobody"])
        let summaries = core.log.entries(after: 0).map(\.summary)
        #expect(summaries[0].hasPrefix("by=\"pbea\""), "\(summaries)")
        #expect(!summaries[1].contains("by="), "the owner's events read as before: \(summaries)")

        var replayed = initial
        for input in inputs {
            let record = try JournalRecordFormat.decode(JournalRecordFormat.encode(input))
            _ = try replayed.replay(record)
        }
        #expect(replayed.state(of: Signed.key) == core.state(of: Signed.key))
    }

    @Test func aContextMadeForATestNamesWhoItIsGiven() {
        #expect(FeatureContext<Signed>(now: start, participant: "pbea").participant == "pbea")
        #expect(FeatureContext<Signed>(now: start).participant == nil)
    }
}
