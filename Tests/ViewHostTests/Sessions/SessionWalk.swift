@testable import ViewHost
import ChatFeature
import Foundation
import LoginFeature
import PersonFeature
import ChatAPI
import LoginAPI
import PersonAPI
import ViewHostAPI
import ViewModelCore
import WeatherAPI
import WeatherFeature

/// A seeded random walk over a whole session (all four features): client intents good and bad, timers firing in
/// between, weather answers and failures in any order. It drives a ``SessionCore`` directly and records what a
/// journal would: every input that was applied, and after each one the bytes of every snapshot, the versions and
/// the log. A replay of the inputs on a fresh core must give the same record.
struct SessionWalk {
    /// What the session looked like after one input.
    struct Frame: Equatable {
        var snapshots: [String: [UInt8]]
        var versions: [String: Int]
        var log: [LogEntry]
    }

    static let features = ["chat", "weather", "login", "person"]
    static let settings = SessionSettings(timeZone: TimeZone(identifier: "Europe/Tallinn")!, simulationSpeed: 1)
    static let start = Date(timeIntervalSince1970: 1_795_442_400)
    /// When its exports are imported: a day after it started (long after its last step).
    static let importedAt = start.addingTimeInterval(86_400)

    let seed: UInt64
    private(set) var core: SessionCore
    private(set) var inputs: [SessionInput] = []
    private(set) var frames: [Frame] = []
    private(set) var refusals = 0
    private var random: RandomSource
    private var now = SessionWalk.start
    private var pendingRequests: [(request: WeatherRequest, id: Int)] = []

    init(seed: UInt64) {
        self.seed = seed
        random = .seeded(seed &* 31 &+ 7)
        core = Self.newCore(seed: seed)
    }

    /// A new session core with every feature in its initial state.
    static func newCore(seed: UInt64) -> SessionCore {
        SessionCore(
            settings: settings, random: .seeded(seed),
            features: [
                InitialFeature(ChatApp.key, state: ChatState()),
                InitialFeature(WeatherApp.key, state: WeatherState(provider: "walk")),
                InitialFeature(LoginApp.key, state: LoginApp.initialState),
                InitialFeature(PersonApp.key, state: PersonApp.initialState),
            ])
    }

    /// The feature types a journal of this session decodes with.
    static let types = FeatureTypes([ChatApp.self, WeatherApp.self, LoginApp.self, PersonApp.self])

    /// What the session looks like now.
    static func frame(of core: SessionCore) -> Frame {
        var snapshots: [String: [UInt8]] = [:]
        var versions: [String: Int] = [:]
        for feature in features {
            guard let (version, viewModel) = core.snapshot(of: feature) else { continue }
            snapshots[feature] = SnapshotEncoder.encode(
                feature: feature, version: version, viewModel: viewModel, sessionID: SessionID("walk")
            ).body
            versions[feature] = version
        }
        return Frame(snapshots: snapshots, versions: versions, log: core.log.entries(after: 0))
    }

    /// Starts the features as the app does, then takes `steps` random steps.
    mutating func walk(steps: Int) throws {
        try applyEvents([ChatAppEvent.intent(.appear)], to: ChatApp.key)
        try applyEvents([WeatherAppEvent.start], to: WeatherApp.key)
        for _ in 0..<steps {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...4: try postIntent()
            case 5...7: fireNextTimer()
            default:
                if Int.random(in: 0..<2, using: &random) == 0 { participate() } else { answerARequest() }
            }
        }
    }

    // MARK: - Inputs

    private mutating func applyEvents<F: Feature>(_ events: [F.Event], to key: FeatureKey<F>) throws {
        let step = try core.apply(events, to: key, source: .view, at: now)
        record(.events(feature: key.name, at: now, source: .view, events: try core.encodeEvents(events, of: key.name)), step: step)
    }

    private mutating func postIntent() throws {
        now.addTimeInterval(Double(Int.random(in: 0...400, using: &random)) / 100)
        switch Int.random(in: 0..<7, using: &random) {
        case 0...2: try submit(randomChatIntent().map(ChatAppEvent.intent), to: ChatApp.key)
        case 3: try submit([WeatherApp.event(for: .changeLocation(location: pick(["Richmond, VA", "Tallinn", "", "Nowhere"])))], to: WeatherApp.key)
        case 4, 5: try submit(randomLoginIntents().map(LoginApp.event(for:)), to: LoginApp.key)
        default:
            let intent = PersonIntent.setPerson(
                salutation: pick([nil, "", "Dr."]), firstName: pick(["Ada", "first"]), lastName: pick(["Byron", "last"]),
                birthdate: pick(["1815-12-10", "1970-01-01T00:00:00Z", "not a date"]))
            guard let event = try? PersonApp.event(for: intent) else { return }  // a 422 at the door: never applied
            try submit([event], to: PersonApp.key)
        }
    }

    private mutating func submit<F: Feature>(_ events: [F.Event], to key: FeatureKey<F>) throws {
        guard !events.isEmpty else { return }
        let ids = events.map { _ in Int.random(in: 0..<4, using: &random) == 0 ? "id\(Int.random(in: 0..<6, using: &random))" : nil }
        let claim = Int.random(in: 0..<3, using: &random) == 0
            ? (key: "key\(Int.random(in: 0..<4, using: &random))", fingerprint: String(repeating: "f\(Int.random(in: 0..<2, using: &random))", count: 32))
            : nil
        let before = core
        do {
            let (_, step, changed) = try core.submit(
                Submission(events: events, eventIDs: ids, idempotency: claim), to: key, at: now)
            guard changed else { return }
            record(
                .submission(
                    feature: key.name, at: now, events: try core.encodeEvents(events, of: key.name), eventIDs: ids, key: claim?.key,
                    fingerprint: claim?.fingerprint),
                step: step)
        } catch let error as SessionError {
            refusals += 1
            guard core == before else { throw WalkFailure.refusalChangedTheSession(error) }
        }
    }

    private mutating func fireNextTimer() {
        guard let next = core.pendingTimers.min(by: { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }) else { return }
        now = max(now, next.dueAt)
        guard let step = core.fireTimer(next.id, at: now) else { return }
        record(.timer(id: next.id, at: now), step: step)
    }

    /// A shared session's invitation, join or removal: a sequence number and a log entry, no version.
    private mutating func participate() {
        now.addTimeInterval(Double(Int.random(in: 0...100, using: &random)) / 100)
        let kind = pick(Participation.allCases)
        let id = "\(kind.subject == "invitation" ? "j" : "p")\(Int.random(in: 0..<4, using: &random))"
        core.participate(kind, id: id, at: now)
        record(.participation(at: now, kind: kind, id: id), step: nil)
    }

    private mutating func answerARequest() {
        guard !pendingRequests.isEmpty else { return }
        let (request, id) = pendingRequests.remove(at: Int.random(in: 0..<pendingRequests.count, using: &random))
        now.addTimeInterval(0.05)
        let event: WeatherAppEvent
        switch request {
        case .geocode(let number, let address):
            switch Int.random(in: 0..<4, using: &random) {
            case 0: event = .weather(.geocoded(request: number, locations: []))
            case 1: event = .weather(.geocodingFailed(request: number, error: .timedOut(service: "Walk")))
            default:
                event = .weather(
                    .geocoded(
                        request: number,
                        locations: [Location(name: address.isEmpty ? "Somewhere" : address, latitude: 1, longitude: 2)]))
            }
        case .currentWeather(let number, _):
            event = Int.random(in: 0..<3, using: &random) == 0
                ? .weather(.weatherFailed(request: number, error: .badStatus(service: "Walk", status: 500)))
                : .weather(
                    .weatherLoaded(
                        request: number,
                        observation: WeatherObservation(
                            temperatureFahrenheit: Double(Int.random(in: -20...100, using: &random)) + 0.5,
                            iconName: pick(["c03d", "r01n", "s02d"]), description: "Walked", observedAt: now)))
        }
        guard let step = core.applyAnswer(event, toRequest: id, at: now) else { return }
        record(.answer(feature: "weather", at: now, request: id, events: try! JSONEncoder().encode([event])), step: step)
    }

    private mutating func record(_ input: SessionInput, step: SessionStep?) {
        for pending in step?.requests ?? [] {
            if let request = pending.request as? WeatherRequest { pendingRequests.append((request, pending.id)) }
        }
        inputs.append(input)
        frames.append(Self.frame(of: core))
    }

    // MARK: - Random intents

    private mutating func randomChatIntent() -> [ChatIntent] {
        let contact = pick(["Ann", "Bob", "John", "", "  ", "Zed"])
        let intent: ChatIntent =
            switch Int.random(in: 0..<10, using: &random) {
            case 0: .addChat
            case 1: .create(contact: contact)
            case 2: .openChat(contact: contact)
            case 3, 4: .send(text: pick(["hi", "", "yo there"]), contact: pick([nil, contact]))
            case 5: .userRead(contact: pick([nil, contact]))
            case 6: .back
            case 7: pick([.appResignActive, .appBecomeActive])
            case 8: .notificationTap(contact: contact)
            default: .appear
            }
        // Sometimes a batch, so all-or-nothing is walked too.
        return Int.random(in: 0..<5, using: &random) == 0 ? [intent, .back, intent] : [intent]
    }

    private mutating func randomLoginIntents() -> [LoginIntent] {
        let value = pick(["maruko", "ab", "123456", "a name longer than twenty-four letters", ""])
        return [pick([.setUsername(value: value), .setPassword(value: value), .login])]
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }
}

/// Why a walk stopped.
enum WalkFailure: Error {
    /// A refused request changed the session.
    case refusalChangedTheSession(SessionError)
}
