import Foundation
import TestSupport
import Testing
import ViewHost
import ViewHostAPI
import ViewModelCore

/// A session whose stored data does not decode with the build that serves it (its feature changed a shape the start
/// cannot see, here an event's payload, without a new schema version) answers `500` naming the feature, the member
/// and the stored version, and the log says the same: before, it answered `503` "Retry later", which never helps,
/// and the log said "The data couldn't be read because it is missing." with no feature, member or version.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(3))))
struct StoredShapeHTTPTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "viewhost-shape-http-\(UUID().uuidString)"
    ).path

    /// A count; its first build's `add` carries the amount bare.
    enum Tally: TallyFeature {
        enum Event: Codable, Equatable, Sendable {
            case add(Int)
        }
    }

    /// The next build: `add` names its amount, the schema version unchanged.
    enum RenamedTally: TallyFeature {
        enum Event: Codable, Equatable, Sendable {
            case add(amount: Int)
        }
    }

    /// An app serving `feature` as `tally`, each session started with an `add` of 2 (a journal record).
    static func serving<F: TallyFeature>(_ feature: F.Type, start: F.Event) -> (inout AppConfiguration) -> Void {
        { configuration in
            let registration = FeatureRegistration.feature(
                F.self, FeatureHosting(initialState: { _ in TallyState() }, startEvents: [start]))
            configuration.features =
                (try? HostedFeatures([registration], settings: FixedFeatureSettings())) ?? HostedFeatures()
        }
    }

    @Test func aSessionThatDoesNotDecodeAnswers500NamingTheFeatureTheMemberAndTheVersion() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = try await TestApp.run(Self.serving(Tally.self, start: .add(2)), storeDirectory: directory) {
            app in
            try await app.createSession(body: #"{"features":["tally"]}"#)
        }
        let log = try LogFile()
        try await TestApp.run(
            Self.serving(RenamedTally.self, start: .add(amount: 2)), logger: log.logger, storeDirectory: directory
        ) { app in
            let response = try await app.request("GET", session.path("tally"), token: session.token)
            #expect(response.status == 500, "\(response)")
            #expect(response.header("Retry-After") == nil)
            let problem = try response.json
            #expect(
                problem["detail"].string
                    == "This session's stored data does not decode with this server's build, so nothing was applied and "
                    + "retrying will not help: feature 'tally', events[0].add.amount, stored by schema version 1 (this "
                    + "build reads version 1) is missing. The server logged it; the app's feature must migrate this data."
            )
            #expect(response.problemFields == ["events[0].add.amount"])
            #expect(problem["storedVersion"].int == 1)
            #expect(problem["schemaVersion"].int == 1)
        }
        let line = try #require(
            try log.lines().first { $0["message"] as? String == "a stored session does not decode with this build" })
        #expect(line["feature"] as? String == "tally")
        #expect(line["field"] as? String == "events[0].add.amount")
        #expect(line["stored-version"] as? String == "1")
        #expect(line["session-id"] as? String == session.id)
    }
}

/// The state every tally build stores.
struct TallyState: Codable, Equatable, Sendable {
    var count = 0
}

/// A tally under some `Event` type: what differs between its builds.
protocol TallyFeature: Feature where State == TallyState, Snapshot == TallySnapshot {}

struct TallySnapshot: FeatureSnapshot {
    static let feature = "tally"
    var count: Int
}

extension TallyFeature {
    static func check(_ event: Event, in state: State) throws(EventRefusal) {}
    static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Self>) {
        state.count += 2
        context.markChanged()
    }
    static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { TallySnapshot(count: state.count) }
    static func describe(_ event: Event) -> EventDescription { EventDescription(name: "add") }
}
