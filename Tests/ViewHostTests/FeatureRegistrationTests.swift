import Foundation
import PersonFeature
import Testing
import ViewHost
import ViewHostAPI
import ViewModelCore

/// An app's registrations are checked before anything is served: a feature listed twice, a name a route takes, a
/// name that is no path segment, a setting outside the feature's name or an event field named `id` stop the start
/// with one line and exit 78 (EX_CONFIG).
struct FeatureRegistrationTests {
    /// A feature's name, as a type (a feature's name is a fact of its snapshot type).
    protocol ProbeName: SendableMetatype {
        static var name: String { get }
    }

    enum Plain: ProbeName { static let name = "probe" }
    enum Log: ProbeName { static let name = "log" }
    enum Stream: ProbeName { static let name = "stream" }
    enum Journal: ProbeName { static let name = "journal" }
    enum Versions: ProbeName { static let name = "versions" }
    enum Invitations: ProbeName { static let name = "invitations" }
    enum Contacts: ProbeName { static let name = "contacts" }
    enum Participants: ProbeName { static let name = "participants" }
    enum Empty: ProbeName { static let name = "" }
    enum TwoWords: ProbeName { static let name = "two words" }
    enum Parent: ProbeName { static let name = "../x" }
    enum Digit: ProbeName { static let name = "9lives" }
    enum Long: ProbeName { static let name = String(repeating: "a", count: 65) }

    /// A feature named by `Name`.
    enum Probe<Name: ProbeName>: Feature {
        struct State: Codable, Equatable, Sendable {}
        typealias Event = ProbeIntent
        typealias Intent = ProbeIntent
        struct Snapshot: FeatureSnapshot {
            static var feature: String { Name.name }
        }

        static func check(_ event: Event, in state: State) throws(EventRefusal) {}
        static func apply(_ event: Event, to state: inout State, context: inout FeatureContext<Probe>) {}
        static func snapshot(of state: State, settings: SessionSettings) -> Snapshot { Snapshot() }
        static func describe(_ event: Event) -> EventDescription { EventDescription(name: event.type) }
    }

    /// Reads a field named `id`, which every event already has.
    struct ProbeIntent: FeatureIntent {
        enum Kind: String, IntentKind { case mark }
        static let feature = "probe"
        let item: String
        var kind: Kind { .mark }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: IntentCodingKeys.self)
            _ = try container.kind(Kind.self)
            item = try container.string("id", limit: TextLimit(characters: 8))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: IntentCodingKeys.self)
            try container.encode(kind: kind, ["id": item])
        }
    }

    static func problem(_ registrations: [FeatureRegistration]) -> ConfigurationError? {
        do {
            _ = try HostedFeatures(registrations, settings: FixedFeatureSettings())
            return nil
        } catch {
            return error
        }
    }

    @Test func aFeatureRegisteredTwiceIsRefusedWithExit78() async throws {
        let error = try #require(Self.problem([.person, .person]))
        #expect(error == .invalidFeatures(reason: "feature 'person' is registered twice"))
        #expect(error.exitCode == 78)
        #expect(error.description == "cannot serve these features: feature 'person' is registered twice")
        await #expect(throws: ConfigurationError.invalidFeatures(reason: "feature 'person' is registered twice")) {
            _ = try await AppConfiguration.load(from: .init(filePath: "/nonexistent.json"), features: [.person, .person])
        }
    }

    @Test(arguments: [Log.self, Stream.self, Journal.self, Versions.self, Invitations.self, Contacts.self, Participants.self] as [any ProbeName.Type])
    func aNameARouteTakesIsRefused(name: any ProbeName.Type) {
        #expect(
            throws: ConfigurationError.invalidFeatures(
                reason: "feature name '\(name.name)' is taken by the route /v1/sessions/{id}/\(name.name)")
        ) {
            try HostedFeatures.check([Self.registration(named: name)], serverKeys: ConfigurationKey.server)
        }
    }

    @Test(arguments: [Empty.self, TwoWords.self, Parent.self, Digit.self, Long.self] as [any ProbeName.Type])
    func aNameThatIsNoPlainPathSegmentIsRefused(name: any ProbeName.Type) {
        #expect(throws: ConfigurationError.self) {
            try HostedFeatures.check([Self.registration(named: name)], serverKeys: ConfigurationKey.server)
        }
    }

    @Test func aSettingOutsideTheFeaturesNameIsRefused() {
        let key = ConfigurationKey(path: "port", kind: .integer, defaultJSON: "1", summary: "Clashes.")
        let registration = FeatureRegistration.feature(Probe<Plain>.self, settings: [key]) { _ in
            FeatureHosting(initialState: { _ in Probe<Plain>.State() })
        }
        #expect(
            throws: ConfigurationError.invalidFeatures(reason: "feature 'probe' declares setting 'port', not under 'probe.'")
        ) {
            try HostedFeatures.check([registration], serverKeys: ConfigurationKey.server)
        }
    }

    @Test func anEventFieldNamedIdIsRefusedNamingTheEvent() throws {
        let error = try #require(Self.problem([Self.registration(named: Plain.self)]))
        #expect(error.exitCode == 78)
        #expect("\(error)".contains("feature 'probe' reads a field 'id' in event 'mark'"))
    }

    /// A registration of ``Probe`` named by `name`.
    static func registration<Name: ProbeName>(named name: Name.Type) -> FeatureRegistration {
        .feature(Probe<Name>.self, FeatureHosting(initialState: { _ in Probe<Name>.State() }))
    }
}
