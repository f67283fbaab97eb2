@testable import ViewHost
import Foundation
import Testing
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewHostJSON
import ViewModelCore

/// Snapshots are encoded with SortedJSONEncoder; they must be the bytes JSONEncoder wrote before it (ETags and
/// cached bytes promise "equal versions, equal bytes", and clients saw JSONEncoder's output). Every version of
/// every feature in a session that goes through each screen is encoded both ways and compared.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct SnapshotEncoderTests {
    @Test func everySnapshotOfAWholeSessionIsTheBytesJSONEncoderWrites() throws {
        let scheduler = ManualScheduler()
        let registry = SessionRegistry(
            settings: SessionRegistry.Settings(seed: 7), scheduler: scheduler,
            features: try HostedFeatures(TestApp.seedFeatures, settings: FixedFeatureSettings()))
        let session = try registry.create(features: nil, timeZone: TimeZone(identifier: "Europe/Berlin")!, locale: "en_US").session
        var compared = 0

        func compareAll() {
            for feature in session.featureNames {
                guard
                    let (_, _, pair) = session.representation(of: feature, make: { version, viewModel in
                        (
                            SnapshotEncoder.encode(feature: feature, version: version, viewModel: viewModel, sessionID: session.id).body,
                            SnapshotEncoder.foundationEncode(feature: feature, version: version, viewModel: viewModel, sessionID: session.id)
                        )
                    }).ready
                else { continue }
                #expect(
                    String(decoding: pair.0, as: UTF8.self) == String(decoding: pair.1, as: UTF8.self), "\(feature)")
                compared += 1
            }
        }

        func post(_ feature: String, _ json: String) throws {
            guard case .object(let members) = try JSONParser.parse(Array(json.utf8)) else { return }
            _ = try registry.definition(named: feature)?.submit(session, [EventFields(members: members, pathPrefix: "")], nil, nil)
            compareAll()
        }

        compareAll()
        scheduler.advance(by: .seconds(1))
        compareAll()
        try post("chat", #"{"type":"addChat"}"#)
        try post("chat", #"{"type":"create","contact":""}"#)
        try post("chat", #"{"type":"create","contact":"Zoë \"Q\" </b>"}"#)
        scheduler.advance(by: .seconds(1))
        compareAll()
        try post("chat", #"{"type":"send","text":"tab\there, newline\nthere, emoji 👋🏽, slash /, quote \" and \\"}"#)
        for _ in 0..<40 {
            scheduler.advance(by: .seconds(1))
            compareAll()
        }
        try post("chat", #"{"type":"back"}"#)
        try post("chat", #"{"type":"appResignActive"}"#)
        scheduler.advance(by: .seconds(20))
        compareAll()
        try post("chat", #"{"type":"appBecomeActive"}"#)
        try post("weather", #"{"type":"changeLocation","location":"Berlin"}"#)
        try post("weather", #"{"type":"changeLocation","location":"Nowhere at all, XX"}"#)
        scheduler.advance(by: .seconds(5))
        compareAll()
        try post("login", #"{"type":"setUsername","value":"annika"}"#)
        try post("login", #"{"type":"setPassword","value":"secret"}"#)
        try post("login", #"{"type":"login"}"#)
        scheduler.advance(by: .seconds(5))
        compareAll()
        try post("person", #"{"type":"setPerson","salutation":"Dr.","firstName":"Ada","lastName":"Lovelace","birthdate":"1815-12-10"}"#)
        #expect(compared > 100)
    }
}
