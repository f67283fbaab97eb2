import Foundation
import ViewHostJSON
import ViewHostLocking
import ViewModelCore

/// The participants of shared sessions as this node knows them (issue 43): the store's
/// (``ParticipantDirectory``), cached per session so a participant's request costs no read of the store; the
/// streams each one has open, to end them when it is removed; and its presence (online while it has a stream open
/// here), told to the session's streams as `event: presence` and never part of a version.
///
/// A removal is made on the node that owns the session (its route resolves there), which updates its cache; any
/// other node forwards that session's requests to the owner, and a node that takes a session over reads its
/// participants again (``forget(_:)`` on adopt). A participant this node has not seen yet (it joined through another
/// node) is read from the store.
final class ParticipantRoster: Sendable {
    /// What a participant's token is worth for its session.
    enum Verdict: Sendable, Equatable {
        /// A participant that takes part.
        case present(Participant)
        /// A participant that was removed: `401`.
        case removed
        /// No participant of the session has this token: `404`, as any other wrong token.
        case unknown
    }

    private struct Stream {
        weak var source: SessionEventSource?
        let participant: String
    }

    /// What this node holds of one session's streams: each open stream, and each participant's presence. Dropped
    /// once the session has no stream open here, so a node holds nothing of the sessions no one follows.
    private struct SessionStreams {
        var streams: [ObjectIdentifier: Stream] = [:]
        var presence: [String: Presence] = [:]
        /// The presence frames its streams write.
        let board = PresenceBoard()
    }

    /// Whether a participant has a stream open, and since when that is so.
    struct Presence: Sendable, Equatable {
        /// Streams it has open.
        var streams = 0
        /// When it came online or went offline last; nil when it has not been online here since the session last had
        /// no stream open on this node (nothing is kept of a session no one follows).
        var since: Date?
        /// Online while it has a stream open.
        var online: Bool { streams > 0 }
    }

    private struct State {
        var cached: [SessionID: [Participant]] = [:]
        var sessions: [SessionID: SessionStreams] = [:]
    }

    let directory: any ParticipantDirectory
    private let state = Locked(State())

    init(directory: any ParticipantDirectory) {
        self.directory = directory
    }

    /// The verdict on participant `id` presenting `secret` for `session` from the cache; nil when the cache cannot
    /// tell (the session's participants were not read here, or not since `id` joined).
    func cachedVerdict(id: String, secret: String, session: SessionID) -> Verdict? {
        state.withLock { state -> Verdict? in
            guard let participants = state.cached[session] else { return nil }
            guard let found = participants.first(where: { $0.id == id }) else { return nil }
            return Self.verdict(found, secret: secret)
        }
    }

    /// The verdict, reading the store when the cache cannot tell (blocks: off the event loops).
    func verdict(id: String, secret: String, session: SessionID) throws(StorageError) -> Verdict {
        if let cached = cachedVerdict(id: id, secret: secret, session: session) { return cached }
        let participants = try directory.participants(of: session)
        state.withLock { $0.cached[session] = participants }
        guard let found = participants.first(where: { $0.id == id }) else { return .unknown }
        return Self.verdict(found, secret: secret)
    }

    /// The participants of `session` (blocks: off the event loops), cached.
    func participants(of session: SessionID) throws(StorageError) -> [Participant] {
        let participants = try directory.participants(of: session)
        state.withLock { $0.cached[session] = participants }
        return participants
    }

    /// Removes `participant` from `session` in the store, then here, and ends its open streams.
    /// - Returns: Whether it was there and not removed before.
    func remove(_ participant: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        guard try directory.removeParticipant(participant, of: session, now: now) else { return false }
        let ending = state.withLock { state -> [SessionEventSource] in
            state.cached[session] = nil
            var ending: [SessionEventSource] = []
            for (key, stream) in state.sessions[session]?.streams ?? [:] where stream.participant == participant {
                if let source = stream.source { ending.append(source) }
                state.sessions[session]?.streams[key] = nil
            }
            return ending
        }
        for source in ending { source.end(.deleted) }
        return true
    }

    /// Notes `source`, a stream `participant` (``Participant/ownerID`` for the owner) of `session` opened: it is told
    /// of presence, and ended if the participant is removed.
    func opened(_ source: SessionEventSource, by participant: String, of session: SessionID) {
        let board = state.withLock { state -> PresenceBoard? in
            // Only while the stream is still counted (its close may have come first: a HEAD's body never starts).
            guard state.sessions[session]?.presence[participant]?.online == true else { return nil }
            state.sessions[session]?.streams[ObjectIdentifier(source)] = Stream(
                source: source, participant: participant)
            return state.sessions[session]?.board
        }
        if let board { source.follow(board) }
    }

    /// Notes that `participant` (``Participant/ownerID`` for the owner), named `name`, of `session` opened a stream
    /// at `now`; if it was offline, the session's other open streams are told (`event: presence`).
    /// - Returns: What to call once that stream is closed (the last one closed tells them it went offline).
    func streamOpened(
        by participant: String, name: String, of session: SessionID, now: Date, clock: any TimerScheduling
    ) -> @Sendable () -> Void {
        let cameOnline = state.withLock { state -> Bool in
            var presence = state.sessions[session]?.presence[participant] ?? Presence()
            if presence.streams == 0 { presence.since = now }
            presence.streams += 1
            state.sessions[session, default: SessionStreams()].presence[participant] = presence
            return presence.streams == 1
        }
        if cameOnline { announce(participant, name: name, of: session, online: true, at: now) }
        return { [weak self] in
            guard let self else { return }
            let now = clock.now
            let wentOffline = self.state.withLock { state -> Bool in
                guard var streams = state.sessions[session], var presence = streams.presence[participant] else {
                    return false
                }
                presence.streams -= 1
                if presence.streams == 0 { presence.since = now }
                streams.presence[participant] = presence
                if streams.presence.values.contains(where: \.online) {
                    // The streams that ended are let go of here, within this session's, not on every open.
                    streams.streams = streams.streams.filter { $0.value.source != nil }
                    state.sessions[session] = streams
                } else {
                    // Its last stream here: nothing of the session is kept (nor anyone's time of going offline).
                    state.sessions[session] = nil
                }
                return presence.streams == 0
            }
            if wentOffline { self.announce(participant, name: name, of: session, online: false, at: now) }
        }
    }

    /// Writes `event: presence` `{"id","name","online","since"}` on every open stream of `session`.
    private func announce(_ participant: String, name: String, of session: SessionID, online: Bool, at now: Date) {
        let found = state.withLock { state in
            state.sessions[session].map { ($0.board, $0.streams.values.compactMap(\.source)) }
        }
        guard let (board, sources) = found, !sources.isEmpty else { return }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id")
        writer.string(participant)
        writer.key("name")
        writer.string(name)
        writer.key("online")
        writer.boolean(online)
        writer.key("since")
        writer.string(now.formatted(.iso8601))
        writer.endObject()
        let frame = Array("event: presence\ndata: ".utf8) + writer.bytes + Array("\n\n".utf8)
        board.post(frame, of: participant)
        for source in sources { source.presenceChanged() }
    }

    /// Whether `participant` of `session` is online here, and since when.
    func presence(of participant: String, in session: SessionID) -> Presence {
        state.withLock { $0.sessions[session]?.presence[participant] ?? Presence() }
    }

    /// Forgets what this node cached of `session`: it was loaded from the store (another node may have changed its
    /// participants meanwhile), or it ended.
    func forget(_ session: SessionID) {
        state.withLock { _ = $0.cached.removeValue(forKey: session) }
    }

    private static func verdict(_ participant: Participant, secret: String) -> Verdict {
        guard SessionToken(digest: participant.tokenDigest).matches(secret) else { return .unknown }
        return participant.removedAt == nil ? .present(participant) : .removed
    }
}
