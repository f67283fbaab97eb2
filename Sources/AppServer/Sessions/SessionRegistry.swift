import Foundation
import HTTPCore
import Synchronization
import ViewModelCore

/// The app's sessions: creates them with their features, finds them for a request's token, deletes them, and
/// sweeps idle ones away in the background.
final class SessionRegistry: Sendable {
    /// How sessions are made and kept.
    struct Settings: Sendable {
        var store = SessionStore.Configuration()
        /// Seed for repeatable bot choices; nil draws each session's seed from the system CSPRNG.
        var seed: UInt64?
        var logCapacity = 256
        /// How much faster than real time the features' simulated delays pass.
        var simulationSpeed = 1.0
    }

    let store: SessionStore
    let scheduler: any TimerScheduling
    let catalog: [FeatureDefinition]
    private let settings: Settings
    private let environment: SessionEnvironment
    private let ordinal = Atomic<UInt64>(0)

    init(
        settings: Settings, scheduler: any TimerScheduling, catalog: [FeatureDefinition],
        requests: (any RequestRunning)? = nil
    ) {
        self.settings = settings
        self.store = SessionStore(configuration: settings.store)
        self.scheduler = scheduler
        self.catalog = catalog
        environment = SessionEnvironment(
            scheduler: scheduler, requests: requests ?? FeatureRequestRunners(catalog.compactMap(\.requestRunner)))
        startSweeping()
    }

    /// Creates a session with `features` (all of them when nil) and starts each feature.
    /// - Throws: `AppError.tooManySessions` at the cap.
    func create(features: [String]?, timeZone: TimeZone, locale: String) throws(AppError) -> Session {
        let wanted = features.map { names in catalog.filter { names.contains($0.name) } } ?? catalog
        let number = ordinal.wrappingAdd(1, ordering: .relaxed).newValue
        let random: RandomSource =
            settings.seed.map { .seeded($0 &+ number &* 0x9E37_79B9_7F4A_7C15) } ?? .system()
        let sessionSettings = SessionSettings(
            timeZone: timeZone, locale: locale, simulationSpeed: settings.simulationSpeed,
            logCapacity: settings.logCapacity)
        guard
            let session = store.insert({
                Session(
                    id: .random(), token: .random(), environment: environment, settings: sessionSettings,
                    random: random, features: wanted.map { $0.initialFeature() })
            })
        else { throw .tooManySessions }
        for definition in wanted { definition.start(session) }
        return session
    }

    /// The session `id` names, if the request carries its token.
    /// - Throws: `missingToken` (401), `sessionNotFound` (404) or `sessionExpired` (410).
    func authenticate(_ request: HTTPRequest, id: String) throws(AppError) -> Session {
        guard let token = Self.token(of: request) else { throw .missingToken }
        switch store.lookup(SessionID(id), token: token, now: scheduler.now) {
        case .found(let session): return session
        case .expired: throw .sessionExpired
        case .notFound: throw .sessionNotFound
        }
    }

    /// Deletes session `id` when the request carries its token.
    func delete(_ request: HTTPRequest, id: String) throws(AppError) {
        let session = try authenticate(request, id: id)
        guard store.remove(session.id, token: session.token.rawValue) else { throw .sessionNotFound }
    }

    /// Marks `session` used now: an open event stream counts as use, so a page that only listens keeps its session.
    func keepAlive(_ session: Session) {
        session.touch(at: scheduler.now)
    }

    /// When `session` expires if left idle from now.
    func expiry(of session: Session) -> Date {
        session.lastAccess.addingTimeInterval(Double(settings.store.idleTTL.components.seconds))
    }

    /// The definition of feature `name`, if the app hosts it.
    func definition(named name: String) -> FeatureDefinition? {
        catalog.first { $0.name == name }
    }

    /// `Authorization: Bearer TOKEN` (RFC 6750 §2.1), else the `viewhost_session` cookie.
    static func token(of request: HTTPRequest) -> String? {
        // The usual case, read in place: `Bearer` (any case), one space, and the token.
        let bearer = request.headers.withFirstValue(of: .authorization) { value -> String? in
            guard value.count > 7, value[6] == UInt8(ascii: " "),
                zip(value.prefix(6), "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }),
                !value.dropFirst(7).contains(where: { $0 == 0x20 || $0 == 0x09 })
            else { return nil }
            return String(decoding: value.dropFirst(7), as: UTF8.self)
        }
        if let bearer = bearer ?? nil { return bearer }
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            if parts.count == 2, parts[0].utf8.count == 6, parts[0].lowercased() == "bearer" {
                return String(parts[1].trimmingOWS())
            }
        }
        for cookieHeader in request.headers.values(for: .cookie) {
            for pair in cookieHeader.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingOWS() == "viewhost_session" {
                    return String(parts[1].trimmingOWS())
                }
            }
        }
        return nil
    }

    /// Expires idle sessions every quarter of the TTL (at most once a minute). The loop holds the registry only
    /// while sweeping, so it ends once the registry is released.
    private func startSweeping() {
        let ttl = settings.store.idleTTL
        let interval = min(max(ttl / 4, .milliseconds(100)), .seconds(60))
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.store.expireIdle(now: self.scheduler.now)
            }
        }
    }
}
