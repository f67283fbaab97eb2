import Foundation
import HTTPCore
import Logging
import Synchronization
import ViewHostLocking
import ViewModelCore

/// The app's sessions: creates them with their features, finds them for a request's token (loading them from the
/// durable store when they are not in memory), deletes them, expires idle ones, and keeps the store told of when
/// each was last used.
final class SessionRegistry: Sendable {
    /// How sessions are made and kept.
    struct Settings: Sendable {
        var store = SessionStore.Configuration()
        /// Seed for repeatable bot choices; nil draws each session's seed from the system CSPRNG.
        var seed: UInt64?
        var logCapacity = 256
        /// How much faster than real time the features' simulated delays pass.
        var simulationSpeed = 1.0
        /// How often last-access times are written to the durable store.
        var accessFlushInterval: Duration = .seconds(5)
        /// How many of each session's latest inputs are kept for its past versions (in memory without a store).
        var historyInputs = 0
        /// The durable store's size past which new sessions are refused (`store.maxMegabytes`); nil: no limit.
        var maxStoreBytes: Int?
        /// Contacts and deliveries between sessions.
        var contacts = AppConfiguration.Contacts()
    }

    /// A session just made, with the secret its client gets once.
    struct Created: Sendable {
        let session: Session
        let secret: SessionSecret
        /// Resolved once the session and its start are durable (nil with the memory store).
        let durable: CommitTicket?
    }

    let store: SessionStore
    let scheduler: any TimerScheduling
    let features: HostedFeatures
    /// The durable store; nil keeps sessions in memory only.
    let storage: (any SessionStorage)?
    let settings: Settings
    let environment: SessionEnvironment
    /// Where a session that cannot be loaded is reported (its client only gets 503).
    let logger: Logger
    /// The hop to other nodes, when this node is one of a cluster that forwards (an internal address is set).
    let cluster: ClusterHop?
    /// The store, when it is shared and this node forwards: it says which node owns a session.
    let shared: (any SharedSessionStorage)?
    private let ordinal = Atomic<UInt64>(0)
    /// Whether ``close()`` ran (it runs once).
    private let closed = Atomic<Bool>(false)
    /// Stored sessions loaded because a timer of theirs fell due (``loadSessionsDue()``), since start.
    let dueLoads = Atomic<Int>(0)
    private let initialFeatures = InitialFeatureCache()
    /// The invitations and contact addresses: the durable store's, or the process's with the memory store.
    let contacts: any ContactDirectory
    /// Takes the sessions' deliveries to their receivers.
    let courier: SessionCourier
    /// The participants of shared sessions: the durable store's, or the process's with the memory store.
    let participants: ParticipantRoster
    /// The loops' work on the store, shut by ``close()`` before the store closes.
    let backgroundWork = BackgroundStoreWork()
    /// One load of a session at a time here (``SessionLoadGate``).
    let loadGate = SessionLoadGate()

    init(
        settings: Settings, scheduler: any TimerScheduling, features: HostedFeatures,
        logger: Logger = Logger(label: "viewhost", factory: { _ in SwiftLogNoOpLogHandler() }),
        requests: (any RequestRunning)? = nil, storage: (any SessionStorage)? = nil, cluster: ClusterHop? = nil
    ) {
        self.settings = settings
        let shared = cluster == nil ? nil : storage as? any SharedSessionStorage
        self.shared = shared
        self.cluster = shared == nil ? nil : cluster
        self.logger = logger
        // With a durable store memory is a cache: idle sessions leave it at the cap, and load again when asked for.
        var storeSettings = settings.store
        storeSettings.evictsIdleSessions = storage != nil
        let store = SessionStore(configuration: storeSettings)
        self.store = store
        self.scheduler = scheduler
        self.features = features
        self.storage = storage
        // A durable store is its own directory (SessionStorage requires it); only the memory store keeps contacts
        // in the process, as it keeps its sessions.
        contacts = storage ?? MemoryContactDirectory()
        participants = ParticipantRoster(directory: storage ?? MemoryParticipantDirectory())
        let courier = SessionCourier(scheduler: scheduler, logger: logger, maxBacklog: settings.contacts.maxBacklog)
        self.courier = courier
        // A session whose input could not be stored closed itself; dropping it makes the next request load its
        // durable value.
        environment = SessionEnvironment(
            scheduler: scheduler,
            requests: requests ?? FeatureRequestRunners(features.definitions.compactMap(\.requestRunner)),
            journal: storage, historyInputs: storage == nil ? settings.historyInputs : 0,
            onStorageFailure: { id in store.drop(id: id) },
            onUnstorable: { id, value in
                // The session stays in memory, stopped: its requests are answered 500, saying why.
                logger.critical(
                    "a session stopped: a value of it cannot be stored",
                    metadata: [
                        "session-id": "\(id)", "feature": "\(value.feature)", "field": "\(value.field)",
                        "reason": "\(value.reason)",
                    ])
            }, courier: courier, maxPendingDeliveries: settings.contacts.maxPending)
        // Another node took sessions over (a shared store): their copies here are stale, so they go, and their
        // streams end without a final event, so clients reconnect (through the balancer, to the new owner).
        storage?.onOwnershipLoss { loss in
            store.forEachSession { session in
                if case .session(let id) = loss, session.id != id { return }
                if store.drop(session) { session.close(.unavailable) }
            }
        }
        courier.attach(self)
        startSweeping()
        if storage != nil { startFlushingAccess() }
        if storage != nil { startLoadingDueSessions() }
    }

    /// Creates a session with `features` (all of them when nil) and starts each feature.
    /// - Throws: `AppError.tooManySessions` at the cap (the memory store); `AppError.storeFull` past the durable
    ///   store's quota.
    func create(features names: [String]?, timeZone: TimeZone, locale: String) throws(AppError) -> Created {
        try checkStoreRoom()
        let wanted =
            names.map { names in self.features.definitions.filter { names.contains($0.name) } }
            ?? self.features.definitions
        let number = ordinal.wrappingAdd(1, ordering: .relaxed).newValue
        let random: RandomSource =
            settings.seed.map { .seeded($0 &+ number &* 0x9E37_79B9_7F4A_7C15) } ?? .system()
        let sessionSettings = SessionSettings(
            timeZone: timeZone, locale: locale, simulationSpeed: settings.simulationSpeed,
            logCapacity: settings.logCapacity)
        let secret = SessionSecret.random()
        let initial = initialFeatures.features(of: wanted, settings: sessionSettings) {
            InitialFeatures(wanted.map { $0.initialFeature(sessionSettings) }, settings: sessionSettings)
        }
        guard
            let session = store.insert({
                Session(
                    id: .random(), token: SessionToken(secret: secret), environment: environment,
                    settings: sessionSettings, random: random, features: initial)
            })
        else { throw .tooManySessions }
        var durable: CommitTicket?
        if let storage {
            // The row first: the writer stores in order, so the start events' journal entries follow it.
            let ticket = CommitTicket()
            do throws(UnstorableValue) {
                try storage.create(
                    StoredSession(
                        id: session.id, token: session.token, createdAt: session.createdAt,
                        lastAccess: session.lastAccess, core: session.core, journalNumber: 0)
                ) { stored in
                    if stored { session.markStored() }
                    ticket.resolve(stored ? .success(()) : .failure(.unavailable))
                }
            } catch {
                // A feature's initial state its encoding refuses: nothing is stored, and nobody gets a session
                // that could not survive a restart.
                store.drop(session)
                session.close(.unavailable)
                logger.critical("a new session's value cannot be stored", metadata: ["reason": "\(error)"])
                throw .unstorable(error)
            }
            durable = ticket
        }
        for definition in wanted { definition.start(session) }
        return Created(session: session, secret: secret, durable: durable)
    }

    /// Refuses a new session when the durable store is past its quota.
    /// - Throws: `AppError.storeFull`.
    func checkStoreRoom() throws(AppError) {
        if let limit = settings.maxStoreBytes, let used = storage?.usedBytes, used >= limit {
            throw .storeFull(megabytes: limit >> 20)
        }
    }

    /// Where the session `id` names is, for a request that carries its token: in memory here, in the durable store
    /// (to load first, off the event loop), or with another live node (``SessionResolver`` follows it).
    /// - Throws: `missingToken` (401), `sessionNotFound` (404), `sessionExpired` (410).
    func resolve(_ request: HTTPRequest, id: String) throws(AppError) -> SessionResolution {
        guard let token = Self.token(of: request, session: id) else { throw .missingToken }
        let sessionID = SessionID(id)
        let now = scheduler.now
        switch store.lookup(sessionID, token: token, now: now) {
        case .found(let session):
            cluster?.affinity.note(sessionID, forwardedBy: cluster?.forwarder(of: request))
            return .here(session)
        case .expired: throw .sessionExpired
        case .notFound: throw .sessionNotFound
        case .notLoaded: return try stored(sessionID, token: token, authorized: false, request: request, now: now)
        }
    }

    /// Where session `id` is for a request of one of its participants, whose token the ``ParticipantRoster`` took
    /// (the session's own token is not asked for).
    /// - Throws: `sessionNotFound` (404).
    func resolve(_ request: HTTPRequest, participantOf id: SessionID) throws(AppError) -> SessionResolution {
        if let session = store.session(id) {
            keepAlive(session)
            return .here(session)
        }
        return try stored(id, token: "", authorized: true, request: request, now: scheduler.now)
    }

    /// Where a session that is not in memory is: in the store, to load, or with another live node.
    private func stored(_ sessionID: SessionID, token: String, authorized: Bool, request: HTTPRequest, now: Date)
        throws(AppError) -> SessionResolution
    {
        guard storage != nil, sessionID.rawValue.utf8.count <= 64 else { throw AppError.sessionNotFound }
        let mode = loadMode(for: request)
        // A session its owner handed here is taken over; one known to live on another node goes there without
        // asking the store.
        if mode == .claim, let cluster, let owner = cluster.routes.takeHandOff(sessionID) {
            cluster.affinity.settle(sessionID)
            return .load(
                SessionLoad(
                    id: sessionID, token: token, now: now, mode: .replacing(owner), authorized: authorized))
        }
        if mode == .claim, let owner = cluster?.routes.owner(of: sessionID) {
            return .elsewhere(elsewhere(sessionID, owner: owner, token: token, now: now, authorized: authorized))
        }
        return .load(SessionLoad(id: sessionID, token: token, now: now, mode: mode, authorized: authorized))
    }

    /// Deletes `session` (authenticated by its token); its rows go too.
    /// - Returns: Resolved once the removal is durable (nil with the memory store).
    func delete(_ session: Session) throws(AppError) -> CommitTicket? {
        guard store.remove(session) else { throw .sessionNotFound }
        participants.forget(session.id)
        guard let storage else {
            (contacts as? MemoryContactDirectory)?.forget(session.id)
            (participants.directory as? MemoryParticipantDirectory)?.forget(session.id)
            return nil
        }
        let ticket = CommitTicket()
        storage.remove(session.id, expiredAt: nil) { removed in
            ticket.resolve(removed ? .success(()) : .failure(.unavailable))
        }
        return ticket
    }

    /// How the durable store is doing (`/readyz` says not ready unless healthy); healthy with the memory store.
    var storageHealth: StorageHealth { storage?.health ?? .healthy }

    /// The durable store's commits and writes (nil with the memory store).
    var commitCounts: (commits: Int, writes: Int)? { storage?.commitCounts }

    /// Tells the store when each session was last used, then ends the sessions in memory, writes what is queued
    /// and closes the store (shutdown): a session used until the stop does not expire across the restart.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        backgroundWork.close()
        flushAccess()
        store.removeAll()
        storage?.close()
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
        features.definition(named: name)
    }

    /// The token for session `id`: `Authorization: Bearer TOKEN` (RFC 6750 §2.1), else the session's cookie
    /// (``SessionCookie``: its own, else the single cookie of earlier releases).
    static func token(of request: HTTPRequest, session id: String) -> String? {
        bearer(of: request) ?? SessionCookie.token(in: request, session: id)?.token
    }

    /// `Authorization: Bearer TOKEN`, when the request has one.
    static func bearer(of request: HTTPRequest) -> String? {
        // Read in place, on bytes: the scheme is what comes before the first space (on Characters, a combining
        // mark right after the space made it one Character with it, and the space was not seen:
        // HeaderValuesFuzzer); `Bearer` in any case, then the token without the whitespace around it.
        let bearer = request.headers.withFirstValue(of: .authorization) { value -> String? in
            guard let space = value.firstIndex(of: UInt8(ascii: " ")),
                ByteClass.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: value[..<space]), "bearer")
            else { return nil }
            let token = ByteClass.trimmed(UnsafeRawBufferPointer(rebasing: value[(space + 1)...]))
            return String(decoding: token, as: UTF8.self)
        }
        return bearer ?? nil
    }

    /// Expires idle sessions every quarter of the TTL (at most once a minute), in memory and in the store. The
    /// loop holds the registry only while sweeping, so it ends once the registry is released.
    private func startSweeping() {
        let ttl = settings.store.idleTTL
        let interval = min(max(ttl / 4, .milliseconds(100)), .seconds(60))
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: interval)
                guard let self, self.backgroundWork.run({ self.sweep() }) else { return }
            }
        }
    }

    private func sweep() {
        let now = scheduler.now
        let expired = store.expireIdle(now: now)
        guard let storage else {
            for session in expired {
                (contacts as? MemoryContactDirectory)?.forget(session.id)
                (participants.directory as? MemoryParticipantDirectory)?.forget(session.id)
                participants.forget(session.id)
            }
            return
        }
        for session in expired { storage.remove(session.id, expiredAt: now) { _ in } }
        flushAccess()
        let store = store
        _ = storage.expire(
            idleBefore: now.addingTimeInterval(-settings.store.idleTTL.seconds),
            forgetBefore: now.addingTimeInterval(-settings.store.tombstoneTTL.seconds), except: { store.isLive($0) })
    }

    /// Writes the last-access times that changed, every few seconds (a crash loses at most that much idle time).
    private func startFlushingAccess() {
        let interval = settings.accessFlushInterval
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: interval)
                guard let self, self.backgroundWork.run({ self.flushAccess() }) else { return }
            }
        }
    }

    /// Writes the last-access times that changed. A session held open by an event stream or a long poll is in
    /// use now, though nothing was sent or read: the page that only listens keeps it (its idle time counts from
    /// the hold's release), and a restart must not find it idle.
    private func flushAccess() {
        let now = scheduler.now
        var changed: [(SessionID, Date)] = []
        store.forEachSession { session in
            if session.isHeld { session.touch(at: now) }
            if let access = session.unpersistedAccess() { changed.append((session.id, access)) }
        }
        storage?.recordAccess(changed)
    }
}
